/* The optional compiled helpers of the encodings (issue 20, item 5): the few loops that run
 * once per decision over a list of the engine's moves, where Python's cost per item is more
 * than the engine's own work, the General's whole step on packed positions, and backgammon's
 * and Defiance's observations. fast.py and envs/general.py, backgammon.py and defiance.py hold
 * the same functions in Python (the references and the fallbacks, which the tests check against
 * these); built at install like the games' cores (hatch_build.py), ignored with
 * LUDOTHEQUE_PURE_PYTHON=1.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define VERSION 7
#define CHECKER_ACTIONS 150 /* backgammon: (src - 1) * 6 + (die - 1), src 1-25, die 1-6 */

/* group(plays, k) -> (actions ascending, {action: (step, (plays...))}): backgammon's plays by
   their k-th single move (src, dst, die, hit), each single move named by its action, the plays
   of each in their order */
static PyObject *group(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "group(plays, k)");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(args[0], "plays must be a sequence");
    if (seq == NULL) return NULL;
    Py_ssize_t k = PyLong_AsSsize_t(args[1]);
    if (k == -1 && PyErr_Occurred()) {
        Py_DECREF(seq);
        return NULL;
    }
    /* only the actions found are touched: a mask of them (150 bits), their counts */
    uint64_t present[3] = {0, 0, 0};
    uint16_t counts[CHECKER_ACTIONS];
    PyObject *steps[CHECKER_ACTIONS];
    PyObject *tuples[CHECKER_ACTIONS];
    int order[CHECKER_ACTIONS], nfound = 0;
    PyObject *result = NULL, *actions = NULL, *found = NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    unsigned char small[64];
    unsigned char *of = n <= 64 ? small : PyMem_Malloc((size_t)n);
    if (of == NULL) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    if (n > 65535) {
        PyErr_SetString(PyExc_ValueError, "too many plays");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) { /* each play's action, and how many plays each has */
        PyObject *play = items[i];
        PyObject *raw = PyTuple_Check(play) && PyTuple_GET_SIZE(play) > 0
                            ? PyTuple_GET_ITEM(play, 0) : NULL;
        if (raw == NULL || !PyTuple_Check(raw) || k < 0 || PyTuple_GET_SIZE(raw) <= k) {
            PyErr_SetString(PyExc_ValueError, "a play is (raw steps, ...) with a k-th step");
            goto done;
        }
        PyObject *step = PyTuple_GET_ITEM(raw, k);
        if (!PyTuple_Check(step) || PyTuple_GET_SIZE(step) != 4) {
            PyErr_SetString(PyExc_ValueError, "a step is (src, dst, die, hit)");
            goto done;
        }
        long src = PyLong_AsLong(PyTuple_GET_ITEM(step, 0));
        long die = PyLong_AsLong(PyTuple_GET_ITEM(step, 2));
        if (PyErr_Occurred()) goto done;
        if (src < 1 || src > 25 || die < 1 || die > 6) {
            PyErr_SetString(PyExc_ValueError, "a step's origin is 1-25 and its die 1-6");
            goto done;
        }
        int action = (int)((src - 1) * 6 + (die - 1));
        of[i] = (unsigned char)action;
        if (!((present[action >> 6] >> (action & 63)) & 1)) {
            present[action >> 6] |= 1ull << (action & 63);
            counts[action] = 0;
            steps[action] = step;
        }
        counts[action]++;
    }
    for (int w = 0; w < 3; w++) /* the actions found, ascending */
        for (uint64_t bits = present[w]; bits; bits &= bits - 1)
            order[nfound++] = w * 64 + __builtin_ctzll(bits);
    for (int j = 0; j < nfound; j++) tuples[order[j]] = NULL;
    for (int j = 0; j < nfound; j++) {
        int a = order[j];
        if ((tuples[a] = PyTuple_New(counts[a])) == NULL) goto done;
        counts[a] = 0; /* from now on: the plays placed */
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(items[i]);
        PyTuple_SET_ITEM(tuples[of[i]], counts[of[i]]++, items[i]);
    }
    actions = PyList_New(nfound);
    found = PyDict_New();
    if (actions == NULL || found == NULL) goto done;
    for (int j = 0; j < nfound; j++) {
        int a = order[j];
        PyObject *key = PyLong_FromLong(a);
        PyObject *value = key ? PyTuple_Pack(2, steps[a], tuples[a]) : NULL;
        if (value == NULL || PyDict_SetItem(found, key, value) < 0) {
            Py_XDECREF(key);
            Py_XDECREF(value);
            goto done;
        }
        PyList_SET_ITEM(actions, j, key); /* the list takes the key's reference */
        Py_DECREF(value);
    }
    result = PyTuple_Pack(2, actions, found);
done:
    Py_XDECREF(actions);
    Py_XDECREF(found);
    for (int j = 0; j < nfound; j++) Py_XDECREF(tuples[order[j]]);
    if (of != small) PyMem_Free(of);
    Py_DECREF(seq);
    return result;
}

/* mask(actions, size) -> bytearray(size) with 1 at each action (ValueError out of range) */
static PyObject *mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "mask(actions, size)");
        return NULL;
    }
    Py_ssize_t size = PyLong_AsSsize_t(args[1]);
    if (size == -1 && PyErr_Occurred()) return NULL;
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "a mask's size is not negative");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(args[0], "actions must be a sequence");
    if (seq == NULL) return NULL;
    PyObject *out = PyByteArray_FromStringAndSize(NULL, size);
    if (out == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    char *bytes = PyByteArray_AS_STRING(out);
    memset(bytes, 0, (size_t)size);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t a = PyLong_AsSsize_t(items[i]);
        if (a == -1 && PyErr_Occurred()) goto fail;
        if (a < 0 || a >= size) {
            PyErr_Format(PyExc_ValueError, "action %zd out of 0-%zd", a, size - 1);
            goto fail;
        }
        bytes[a] = 1;
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(out);
    Py_DECREF(seq);
    return NULL;
}

/* ---- Le Général et les rebelles: the whole step on packed positions (envs/general.py) -------
 *
 * A position is one integer (envs/general.py, ``key_of``): the rebels in bits 0-28, the
 * general's point in bits 29-33, the side to move in bit 34 (1: the general), the flight still
 * available in bit 35. general_setup() is given the engine's move tables once, each move
 * replaced by its action (the tables of games/general/moves.py, as _cgeneral.c reads them), and
 * the rules' few constants; the moves listed here are the engine's, in the order of actions.
 */
#define G_POINTS 29
#define G_REBELS ((1ull << G_POINTS) - 1)
#define G_GENERAL_SHIFT 29
#define G_SIDE_BIT 34
#define G_FLIGHT_BIT 35
#define G_MAX_STEPS 8
#define G_MAX_PAIRS 4
#define G_AREA 35   /* the observation's grid: 7 rows of 5 */
#define G_PLANES 8
#define G_MAX_MOVES 512 /* far above the most a position has (rebels 16 x 8, general 8 x 4 + 28 x 4) */

typedef struct {
    int dst;     /* the point stepped to, or the landing of a flight */
    int plain;   /* the action without a capture */
    int npairs;
    uint32_t pair[G_MAX_PAIRS];
    int capture[G_MAX_PAIRS];
} GStep;

typedef struct {
    int action;
    uint64_t next;
} GMove;

static int g_ready = 0;
static int g_apex, g_min_rebels;
static uint32_t g_sanctuary, g_gates;
static uint32_t g_rebel_targets[G_POINTS];
static int g_rebel_action[G_POINTS][G_POINTS];
static int g_nsteps[G_POINTS];
static GStep g_steps[G_POINTS][G_MAX_STEPS];
static int g_nflights[G_POINTS];
static GStep g_flights[G_POINTS][G_POINTS];
static int g_cells[G_POINTS];              /* each point's cell on the observation's grid */
static PyObject *g_action_objects = NULL; /* a tuple of every action as a Python int */
static Py_ssize_t g_num_actions = 0;

static int g_action(PyObject *value) {
    long a = PyLong_AsLong(value);
    if (a == -1 && PyErr_Occurred()) return -2;
    if (a < 0 || a >= g_num_actions) {
        PyErr_Format(PyExc_ValueError, "action %ld out of 0-%zd", a, g_num_actions - 1);
        return -2;
    }
    return (int)a;
}

static int g_read_step(PyObject *entry, GStep *step) {
    /* (point, plain action, ((pair mask, capturing action), ...)) */
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 3 ||
        !PyTuple_Check(PyTuple_GET_ITEM(entry, 2)) ||
        PyTuple_GET_SIZE(PyTuple_GET_ITEM(entry, 2)) > G_MAX_PAIRS) {
        PyErr_SetString(PyExc_ValueError, "a step is (point, action, captures of at most 4)");
        return -1;
    }
    long dst = PyLong_AsLong(PyTuple_GET_ITEM(entry, 0));
    if (dst == -1 && PyErr_Occurred()) return -1;
    if (dst < 0 || dst >= G_POINTS) {
        PyErr_SetString(PyExc_ValueError, "a point out of the board");
        return -1;
    }
    step->dst = (int)dst;
    if ((step->plain = g_action(PyTuple_GET_ITEM(entry, 1))) < -1) return -1;
    PyObject *captures = PyTuple_GET_ITEM(entry, 2);
    step->npairs = (int)PyTuple_GET_SIZE(captures);
    for (int k = 0; k < step->npairs; k++) {
        PyObject *item = PyTuple_GET_ITEM(captures, k);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) {
            PyErr_SetString(PyExc_ValueError, "a capture is (pair mask, action)");
            return -1;
        }
        unsigned long pair = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(item, 0));
        if (PyErr_Occurred()) return -1;
        if (pair >> G_POINTS) {
            PyErr_SetString(PyExc_ValueError, "a pair out of the board");
            return -1;
        }
        step->pair[k] = (uint32_t)pair;
        if ((step->capture[k] = g_action(PyTuple_GET_ITEM(item, 1))) < -1) return -1;
    }
    return 0;
}

/* general_setup(rebel_actions, general_steps, flights, apex, sanctuary, gates, min_rebels,
 *               num_actions, cells) */
static PyObject *general_setup(PyObject *self, PyObject *args) {
    PyObject *rebel_rows, *general_steps, *flight_steps, *cells;
    unsigned long sanctuary, gates;
    Py_ssize_t num_actions;
    if (!PyArg_ParseTuple(args, "O!O!O!ikkinO!", &PyTuple_Type, &rebel_rows, &PyTuple_Type,
                          &general_steps, &PyTuple_Type, &flight_steps, &g_apex, &sanctuary,
                          &gates, &g_min_rebels, &num_actions, &PyTuple_Type, &cells))
        return NULL;
    g_ready = 0;
    if (PyTuple_GET_SIZE(rebel_rows) != G_POINTS || PyTuple_GET_SIZE(general_steps) != G_POINTS ||
        PyTuple_GET_SIZE(flight_steps) != G_POINTS || PyTuple_GET_SIZE(cells) != G_POINTS ||
        g_apex < 0 || g_apex >= G_POINTS || sanctuary >> G_POINTS || gates >> G_POINTS ||
        num_actions <= 0 || num_actions > 65536) {
        PyErr_SetString(PyExc_ValueError, "tables of 29 points and a board expected");
        return NULL;
    }
    for (int p = 0; p < G_POINTS; p++) {
        long cell = PyLong_AsLong(PyTuple_GET_ITEM(cells, p));
        if (cell == -1 && PyErr_Occurred()) return NULL;
        if (cell < 0 || cell >= G_AREA) {
            PyErr_SetString(PyExc_ValueError, "a cell out of the grid");
            return NULL;
        }
        g_cells[p] = (int)cell;
    }
    g_sanctuary = (uint32_t)sanctuary;
    g_gates = (uint32_t)gates;
    g_num_actions = num_actions;
    for (int p = 0; p < G_POINTS; p++) {
        PyObject *row = PyTuple_GET_ITEM(rebel_rows, p);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != G_POINTS) {
            PyErr_SetString(PyExc_ValueError, "a row of rebel actions has 29 entries");
            return NULL;
        }
        g_rebel_targets[p] = 0;
        for (int q = 0; q < G_POINTS; q++) {
            PyObject *item = PyTuple_GET_ITEM(row, q);
            if (item == Py_None) {
                g_rebel_action[p][q] = -1;
                continue;
            }
            if ((g_rebel_action[p][q] = g_action(item)) < -1) return NULL;
            g_rebel_targets[p] |= 1u << q;
        }
        PyObject *mine = PyTuple_GET_ITEM(general_steps, p);
        PyObject *flying = PyTuple_GET_ITEM(flight_steps, p);
        if (!PyTuple_Check(mine) || PyTuple_GET_SIZE(mine) > G_MAX_STEPS ||
            !PyTuple_Check(flying) || PyTuple_GET_SIZE(flying) > G_POINTS) {
            PyErr_SetString(PyExc_ValueError, "malformed steps");
            return NULL;
        }
        g_nsteps[p] = (int)PyTuple_GET_SIZE(mine);
        for (int i = 0; i < g_nsteps[p]; i++)
            if (g_read_step(PyTuple_GET_ITEM(mine, i), &g_steps[p][i]) < 0) return NULL;
        g_nflights[p] = (int)PyTuple_GET_SIZE(flying);
        for (int i = 0; i < g_nflights[p]; i++)
            if (g_read_step(PyTuple_GET_ITEM(flying, i), &g_flights[p][i]) < 0) return NULL;
    }
    PyObject *objects = PyTuple_New(num_actions);
    if (objects == NULL) return NULL;
    for (Py_ssize_t a = 0; a < num_actions; a++) {
        PyObject *number = PyLong_FromSsize_t(a);
        if (number == NULL) {
            Py_DECREF(objects);
            return NULL;
        }
        PyTuple_SET_ITEM(objects, a, number);
    }
    Py_XSETREF(g_action_objects, objects);
    g_ready = 1;
    Py_RETURN_NONE;
}

static inline uint64_t g_pack(uint32_t rebels, int general, int side, int flight) {
    return (uint64_t)rebels | (uint64_t)general << G_GENERAL_SHIFT | (uint64_t)side << G_SIDE_BIT |
           (uint64_t)flight << G_FLIGHT_BIT;
}

/* the moves of the general onto one step's point (or one flight's landing): its captures, else
 * the plain step */
static int g_add_step(GMove *out, int n, const GStep *step, uint32_t rebels, int flight) {
    int found = 0;
    for (int k = 0; k < step->npairs; k++) {
        if ((rebels & step->pair[k]) == step->pair[k] && n < G_MAX_MOVES) {
            out[n].action = step->capture[k];
            out[n++].next = g_pack(rebels & ~step->pair[k], step->dst, 0, flight);
            found = 1;
        }
    }
    if (!found && n < G_MAX_MOVES) {
        out[n].action = step->plain;
        out[n++].next = g_pack(rebels, step->dst, 0, flight);
    }
    return n;
}

/* the legal moves of a position, by action ascending (none when the game is over: twelve
 * rebels captured, the general shut in the sanctuary, or no move for the side to move) */
static int g_moves(uint64_t key, GMove *out) {
    uint32_t rebels = (uint32_t)(key & G_REBELS);
    int general = (int)(key >> G_GENERAL_SHIFT) & 31;
    int side = (int)(key >> G_SIDE_BIT) & 1;
    int flight = (int)(key >> G_FLIGHT_BIT) & 1;
    if (__builtin_popcount(rebels) <= g_min_rebels) return 0;
    if ((g_sanctuary >> general) & 1u && (rebels & g_gates) == g_gates) return 0;
    int n = 0;
    if (!side) {
        uint32_t empty = ~(rebels | (1u << general));
        for (uint32_t r = rebels; r; r &= r - 1) {
            int src = __builtin_ctz(r);
            for (uint32_t t = g_rebel_targets[src] & empty; t; t &= t - 1) {
                int dst = __builtin_ctz(t);
                if (n < G_MAX_MOVES) {
                    out[n].action = g_rebel_action[src][dst];
                    out[n++].next = g_pack(rebels ^ ((1u << src) | (1u << dst)), general, 1, flight);
                }
            }
        }
    } else {
        for (int i = 0; i < g_nsteps[general]; i++) {
            const GStep *step = &g_steps[general][i];
            if ((rebels >> step->dst) & 1u) continue;
            if (step->dst == g_apex && flight) {
                for (int j = 0; j < g_nflights[general]; j++) {
                    const GStep *land = &g_flights[general][j];
                    if (!((rebels >> land->dst) & 1u)) n = g_add_step(out, n, land, rebels, 0);
                }
            } else {
                n = g_add_step(out, n, step, rebels, flight);
            }
        }
    }
    for (int i = 1; i < n; i++) { /* a few dozen at most, nearly sorted: insertion */
        GMove move = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].action > move.action) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = move;
    }
    return n;
}

static PyObject *g_list(const GMove *moves, int n) {
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *number = PyTuple_GET_ITEM(g_action_objects, moves[i].action);
        Py_INCREF(number);
        PyList_SET_ITEM(out, i, number);
    }
    return out;
}

static int g_key(PyObject *value, uint64_t *key) {
    if (!g_ready) {
        PyErr_SetString(PyExc_RuntimeError, "general_setup() was not called");
        return -1;
    }
    unsigned long long k = PyLong_AsUnsignedLongLong(value);
    if (k == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (k >> (G_FLIGHT_BIT + 1) || ((k >> G_GENERAL_SHIFT) & 31) >= G_POINTS) {
        PyErr_SetString(PyExc_ValueError, "not a packed position");
        return -1;
    }
    *key = (uint64_t)k;
    return 0;
}

/* general_legal(key) -> the legal actions of the position, ascending ([] when it is over) */
static PyObject *general_legal(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t key;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "general_legal(key)");
        return NULL;
    }
    if (g_key(args[0], &key) < 0) return NULL;
    GMove moves[G_MAX_MOVES];
    return g_list(moves, g_moves(key, moves));
}

/* general_step(key, action, keys) -> (next key, its legal actions ascending, next keys, count),
 * or None when the action is not legal at key. ``keys`` are the positions since the last
 * irreversible move (a capture or the flight), key last, as native 64-bit integers in bytes;
 * the next keys are the same with the next position added (only it after an irreversible
 * move), and count how many times the next position occurs in them. */
static PyObject *general_step(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t key;
    if (nargs != 3 || !PyBytes_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "general_step(key, action, keys: bytes)");
        return NULL;
    }
    if (g_key(args[0], &key) < 0) return NULL;
    int overflow;
    long action = PyLong_AsLongAndOverflow(args[1], &overflow);
    if (action == -1 && PyErr_Occurred()) return NULL;
    Py_ssize_t size = PyBytes_GET_SIZE(args[2]);
    if (size % 8) {
        PyErr_SetString(PyExc_ValueError, "keys are 8 bytes each");
        return NULL;
    }
    GMove moves[G_MAX_MOVES];
    int n = overflow ? 0 : g_moves(key, moves);
    int i = 0;
    while (i < n && moves[i].action != action) i++;
    if (i == n) Py_RETURN_NONE;
    uint64_t next = moves[i].next;
    uint64_t changed = key ^ next;
    int irreversible = (changed >> G_FLIGHT_BIT) & 1 ||
                       __builtin_popcount((uint32_t)(key & G_REBELS)) !=
                           __builtin_popcount((uint32_t)(next & G_REBELS));
    Py_ssize_t kept = irreversible ? 0 : size;
    PyObject *keys = PyBytes_FromStringAndSize(NULL, kept + 8);
    if (keys == NULL) return NULL;
    char *bytes = PyBytes_AS_STRING(keys);
    memcpy(bytes, PyBytes_AS_STRING(args[2]), (size_t)kept);
    memcpy(bytes + kept, &next, 8);
    long count = 0;
    for (Py_ssize_t at = 0; at <= kept; at += 8) {
        uint64_t seen;
        memcpy(&seen, bytes + at, 8);
        count += seen == next;
    }
    PyObject *legal = g_list(moves, g_moves(next, moves));
    PyObject *number = PyLong_FromUnsignedLongLong(next);
    PyObject *times = PyLong_FromLong(count);
    PyObject *result = NULL;
    if (legal != NULL && number != NULL && times != NULL) {
        result = PyTuple_New(4);
        if (result != NULL) {
            PyTuple_SET_ITEM(result, 0, number);
            PyTuple_SET_ITEM(result, 1, legal);
            PyTuple_SET_ITEM(result, 2, keys);
            PyTuple_SET_ITEM(result, 3, times);
            return result;
        }
    }
    Py_XDECREF(legal);
    Py_XDECREF(number);
    Py_XDECREF(times);
    Py_DECREF(keys);
    return NULL;
}

/* general_observe(out, key, player, count, turns, max_turns): the observation of envs/general.py
 * (``observe_py``, its reference) written into ``out``, a C-contiguous float32 array of 8 x 35
 * (every number of it): the rebels, the general, the board, the flight available, the rebels
 * to move, the observer the rebels, (count - 1) / 2, min(1, turns / max_turns). */
static PyObject *general_observe(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t key;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "general_observe(out, key, player, count, turns, max)");
        return NULL;
    }
    if (g_key(args[1], &key) < 0) return NULL;
    long player = PyLong_AsLong(args[2]);
    long count = PyLong_AsLong(args[3]);
    long turns = PyLong_AsLong(args[4]);
    long max_turns = PyLong_AsLong(args[5]);
    if (PyErr_Occurred()) return NULL;
    if (max_turns <= 0) {
        PyErr_SetString(PyExc_ValueError, "the turn limit is positive");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (view.len != G_PLANES * G_AREA * (Py_ssize_t)sizeof(float) || view.itemsize != 4 ||
        view.format == NULL || strcmp(view.format, "f") != 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "out is a float32 array of 8 x 7 x 5");
        return NULL;
    }
    float *f = (float *)view.buf;
    uint32_t rebels = (uint32_t)(key & G_REBELS);
    float planes[G_PLANES] = {
        0.0f, 0.0f, 0.0f,
        (float)((key >> G_FLIGHT_BIT) & 1),
        (float)!((key >> G_SIDE_BIT) & 1),
        (float)(player == 0),
        (float)((double)(count - 1) / 2),
        (float)((double)turns / (double)max_turns < 1.0 ? (double)turns / (double)max_turns : 1.0),
    };
    for (int p = 0; p < G_PLANES; p++)
        for (int c = 0; c < G_AREA; c++) f[p * G_AREA + c] = planes[p];
    for (uint32_t r = rebels; r; r &= r - 1) f[g_cells[__builtin_ctz(r)]] = 1.0f;
    f[G_AREA + g_cells[(key >> G_GENERAL_SHIFT) & 31]] = 1.0f;
    for (int p = 0; p < G_POINTS; p++) f[2 * G_AREA + g_cells[p]] = 1.0f;
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* ---- backgammon: the observation (envs/backgammon.py) ------------------------------------
 *
 * Boards are the engine's packed integers (games/backgammon/board.py): four bits per place, 0
 * borne off, 1-24 the points, 25 the bar, each side in its own view.
 */
typedef unsigned __int128 u128;
#define BG_SIZE 215
#define BG_BAR 192
#define BG_DICE 196
#define BG_TURN 202
#define BG_CAP 204
#define BG_NIBBLE(b, p) ((int)(((b) >> ((p) << 2)) & 15))
#define BG_ONE(p) (((u128)1) << ((p) << 2))

static int bg_board(PyObject *obj, u128 *out) {
    unsigned char buf[16];
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "a board is an int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t size = PyLong_AsNativeBytes(
        obj, buf, 16,
        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
            Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (size < 0) return -1;
    if (size > 16) {
        PyErr_SetString(PyExc_ValueError, "not a packed board");
        return -1;
    }
#else
    if (_PyLong_AsByteArray((PyLongObject *)obj, buf, 16, 1, 0) < 0) return -1;
#endif
    u128 v = 0;
    for (int i = 15; i >= 0; i--) v = (v << 8) | buf[i];
    if (v >> 104) {
        PyErr_SetString(PyExc_ValueError, "not a packed board");
        return -1;
    }
    *out = v;
    return 0;
}

static inline float bg_units(int n, int k) { /* the four numbers of n checkers (_UNITS) */
    if (k < 3) return n > k ? 1.0f : 0.0f;
    return n <= 3 ? 0.0f : n >= 15 ? 1.0f : (float)((double)(n - 3) / 12);
}

/* backgammon_observe(out, own, opp, done, observer_moves, high, low, turn, cap): the numbers
 * 0-204 of envs/backgammon.py's observation (``observe_py``, the reference) written into
 * ``out``, a C-contiguous float32 array of 215, and 205-214 (the cube's) set to 0. ``own`` and
 * ``opp`` are the observer's and the opponent's packed boards at the start of the turn;
 * ``done`` the single moves made so far, (src, dst, die, hit) each, by the observer when
 * ``observer_moves`` else by the opponent; ``high``, ``low`` the roll being played (0, 0 when
 * none is: no dice left); ``turn`` 1 when the observer is to move, 2 the opponent, 0 nobody;
 * ``cap`` the seed's five-checker cap. */
static PyObject *backgammon_observe(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError,
                        "backgammon_observe(out, own, opp, done, observer_moves, high, low, turn, "
                        "cap)");
        return NULL;
    }
    u128 boards[2];
    if (bg_board(args[1], &boards[0]) < 0 || bg_board(args[2], &boards[1]) < 0) return NULL;
    int observer_moves = PyObject_IsTrue(args[4]);
    if (observer_moves < 0) return NULL;
    long high = PyLong_AsLong(args[5]), low = PyLong_AsLong(args[6]);
    long turn = PyLong_AsLong(args[7]);
    int cap = PyObject_IsTrue(args[8]);
    if (PyErr_Occurred() || cap < 0) return NULL;
    if (high < 0 || high > 6 || low < 0 || low > high || (high == 0) != (low == 0) || turn < 0 ||
        turn > 2) {
        PyErr_SetString(PyExc_ValueError, "dice 0-6 (high first, 0 0: none), turn 0-2");
        return NULL;
    }
    int left[7] = {0};
    if (high) {
        if (high == low) left[high] = 4;
        else left[high] = left[low] = 1;
    }
    if (!PyTuple_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "done is a tuple of single moves");
        return NULL;
    }
    u128 *me = &boards[observer_moves ? 0 : 1], *them = &boards[observer_moves ? 1 : 0];
    Py_ssize_t ndone = PyTuple_GET_SIZE(args[3]);
    for (Py_ssize_t i = 0; i < ndone; i++) {
        PyObject *step = PyTuple_GET_ITEM(args[3], i);
        if (!PyTuple_Check(step) || PyTuple_GET_SIZE(step) != 4) {
            PyErr_SetString(PyExc_ValueError, "a single move is (src, dst, die, hit)");
            return NULL;
        }
        long src = PyLong_AsLong(PyTuple_GET_ITEM(step, 0));
        long dst = PyLong_AsLong(PyTuple_GET_ITEM(step, 1));
        long die = PyLong_AsLong(PyTuple_GET_ITEM(step, 2));
        int hit = PyObject_IsTrue(PyTuple_GET_ITEM(step, 3));
        if (PyErr_Occurred() || hit < 0) return NULL;
        if (src < 1 || src > 25 || dst < 0 || dst > 24 || die < 1 || die > 6 || !left[die] ||
            BG_NIBBLE(*me, src) == 0 || BG_NIBBLE(*me, dst) == 15 ||
            (hit && (dst == 0 || BG_NIBBLE(*them, 25 - dst) == 0))) {
            PyErr_SetString(PyExc_ValueError, "a single move that cannot be made here");
            return NULL;
        }
        left[die]--;
        *me = *me - BG_ONE(src) + BG_ONE(dst);
        if (hit) *them = *them - BG_ONE(25 - dst) + BG_ONE(25);
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (view.len != BG_SIZE * (Py_ssize_t)sizeof(float) || view.itemsize != 4 ||
        view.format == NULL || strcmp(view.format, "f") != 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "out is a float32 array of 215");
        return NULL;
    }
    float *f = (float *)view.buf;
    u128 own = boards[0], opp = boards[1];
    for (int p = 1; p <= 24; p++) {
        int a = BG_NIBBLE(own, p), b = BG_NIBBLE(opp, 25 - p); /* both on the observer's p */
        for (int k = 0; k < 4; k++) {
            f[4 * (p - 1) + k] = bg_units(a, k);
            f[96 + 4 * (p - 1) + k] = bg_units(b, k);
        }
    }
    for (int i = BG_BAR; i < BG_SIZE; i++) f[i] = 0.0f;
    f[BG_BAR] = (float)((double)BG_NIBBLE(own, 25) / 15);
    f[BG_BAR + 1] = (float)((double)BG_NIBBLE(opp, 25) / 15);
    f[BG_BAR + 2] = (float)((double)BG_NIBBLE(own, 0) / 15);
    f[BG_BAR + 3] = (float)((double)BG_NIBBLE(opp, 0) / 15);
    for (int d = 1; d <= 6; d++) f[BG_DICE + d - 1] = 0.25f * (float)left[d];
    if (turn) f[BG_TURN + turn - 1] = 1.0f;
    if (cap) f[BG_CAP] = 1.0f;
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* ---- Defiance and Domain: the observation (envs/defiance.py) -------------------------------
 *
 * defiance_observe(out, n, masks, cell, rebel, imperial_a, imperial_b, wholes): every number of
 * envs/defiance.py's observation (``observe_py``, its reference) written into ``out``, a
 * C-contiguous float32 array of 26 x (n + 1) x (n + 1): ``masks`` the engine's bitboards (one
 * mask of cells per counter code 0-16, cell ``j * n + i`` in bit ``j * n + i``; the board after
 * the action during the second decision), ``cell`` the cell of the action just made (-1 in
 * the first decision), ``rebel`` and ``imperial_a``, ``imperial_b`` the Commands' points
 * (``y * (n + 1) + x``), ``wholes`` the values of the whole planes 18, 19, 20, 21, 24, 25. */
#define D_PLANES 26
#define D_MAX_N 11 /* n * n cells fit in 128 bits */

static PyObject *defiance_observe(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError,
                        "defiance_observe(out, n, masks, cell, rebel, imperial_a, imperial_b, "
                        "wholes)");
        return NULL;
    }
    long n = PyLong_AsLong(args[1]);
    long cell = PyLong_AsLong(args[3]);
    long points[3] = {PyLong_AsLong(args[4]), PyLong_AsLong(args[5]), PyLong_AsLong(args[6])};
    if (PyErr_Occurred()) return NULL;
    if (n < 2 || n > D_MAX_N) {
        PyErr_SetString(PyExc_ValueError, "a board of 2 to 11 cells a side");
        return NULL;
    }
    long m = n + 1, area = m * m;
    if (cell < -1 || cell >= n * n) {
        PyErr_SetString(PyExc_ValueError, "a cell out of the board");
        return NULL;
    }
    for (int k = 0; k < 3; k++)
        if (points[k] < 0 || points[k] >= area) {
            PyErr_SetString(PyExc_ValueError, "a point out of the board");
            return NULL;
        }
    if (!PyTuple_Check(args[2]) || PyTuple_GET_SIZE(args[2]) < 17 || !PyTuple_Check(args[7]) ||
        PyTuple_GET_SIZE(args[7]) != 6) {
        PyErr_SetString(PyExc_TypeError, "masks: a tuple of 17 masks; wholes: a tuple of 6");
        return NULL;
    }
    u128 masks[17];
    u128 board = (((u128)1) << (n * n)) - 1; /* (n * n < 128) */
    for (int code = 1; code <= 16; code++) {
        PyObject *mask = PyTuple_GET_ITEM(args[2], code);
        unsigned char buf[16];
        if (!PyLong_Check(mask)) {
            PyErr_SetString(PyExc_TypeError, "a mask is an int");
            return NULL;
        }
#if PY_VERSION_HEX >= 0x030D0000
        Py_ssize_t size = PyLong_AsNativeBytes(
            mask, buf, 16,
            Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                Py_ASNATIVEBYTES_REJECT_NEGATIVE);
        if (size < 0) return NULL;
        if (size > 16) {
            PyErr_SetString(PyExc_ValueError, "a mask out of the board");
            return NULL;
        }
#else
        if (_PyLong_AsByteArray((PyLongObject *)mask, buf, 16, 1, 0) < 0) return NULL;
#endif
        u128 v = 0;
        for (int i = 15; i >= 0; i--) v = (v << 8) | buf[i];
        if (v & ~board) {
            PyErr_SetString(PyExc_ValueError, "a mask out of the board");
            return NULL;
        }
        masks[code] = v;
    }
    double wholes[6];
    for (int k = 0; k < 6; k++) {
        wholes[k] = PyFloat_AsDouble(PyTuple_GET_ITEM(args[7], k));
        if (wholes[k] == -1.0 && PyErr_Occurred()) return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (view.len != D_PLANES * area * (Py_ssize_t)sizeof(float) || view.itemsize != 4 ||
        view.format == NULL || strcmp(view.format, "f") != 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "out is a float32 array of 26 x (n + 1) x (n + 1)");
        return NULL;
    }
    float *f = (float *)view.buf;
    memset(f, 0, 18 * area * sizeof(float));
    for (int code = 1; code <= 16; code++) {
        float *plane = f + (code - 1) * area;
        for (u128 bits = masks[code]; bits; bits &= bits - 1) {
            uint64_t low = (uint64_t)bits;
            int c = low ? __builtin_ctzll(low) : 64 + __builtin_ctzll((uint64_t)(bits >> 64));
            plane[(c / n) * m + c % n] = 1.0f;
        }
    }
    f[16 * area + points[0]] = 1.0f;
    f[17 * area + points[1]] += 0.5f;
    f[17 * area + points[2]] += 0.5f;
    static const int whole_planes[6] = {18, 19, 20, 21, 24, 25};
    for (int k = 0; k < 6; k++) {
        float value = (float)wholes[k];
        float *plane = f + whole_planes[k] * area;
        for (long i = 0; i < area; i++) plane[i] = value;
    }
    float chosen = cell >= 0 ? 1.0f : 0.0f;
    for (long i = 0; i < area; i++) f[22 * area + i] = chosen;
    memset(f + 23 * area, 0, area * sizeof(float));
    if (cell >= 0) f[23 * area + (cell / n) * m + cell % n] = 1.0f;
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"group", (PyCFunction)(void (*)(void))group, METH_FASTCALL,
     "group(plays, k): backgammon's plays by their k-th single move, by action (tuples)"},
    {"mask", (PyCFunction)(void (*)(void))mask, METH_FASTCALL,
     "mask(actions, size): a bytearray with 1 at each action"},
    {"general_setup", general_setup, METH_VARARGS,
     "general_setup(rebel_actions, general_steps, flights, apex, sanctuary, gates, min_rebels, "
     "num_actions): the General's move tables by action, once"},
    {"general_legal", (PyCFunction)(void (*)(void))general_legal, METH_FASTCALL,
     "general_legal(key): the legal actions of a packed position of the General, ascending"},
    {"general_observe", (PyCFunction)(void (*)(void))general_observe, METH_FASTCALL,
     "general_observe(out, key, player, count, turns, max_turns): the General's observation"},
    {"general_step", (PyCFunction)(void (*)(void))general_step, METH_FASTCALL,
     "general_step(key, action, keys): the General's next position, its legal actions, the "
     "positions since the last irreversible move and the count of the next one; None when "
     "the action is not legal"},
    {"backgammon_observe", (PyCFunction)(void (*)(void))backgammon_observe, METH_FASTCALL,
     "backgammon_observe(out, own, opp, done, observer_moves, high, low, turn, cap): "
     "backgammon's observation but the cube's numbers"},
    {"defiance_observe", (PyCFunction)(void (*)(void))defiance_observe, METH_FASTCALL,
     "defiance_observe(out, n, masks, cell, rebel, imperial_a, imperial_b, wholes): Defiance's "
     "observation"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cenvs", "The encodings' compiled helpers (see fast.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__cenvs(void) {
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "VERSION", VERSION) < 0) Py_CLEAR(m);
    return m;
}

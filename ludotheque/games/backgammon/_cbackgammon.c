/* The optional compiled core of backgammon: the legal plays of a roll (movegen.py's generate(),
 * the same plays in the same order, each with the same canonical single moves), built straight
 * into the values the engine uses, random play-outs for roll-outs, and the engine's states made
 * in one allocation (rules.py's _make()).
 *
 * Boards are movegen.py's packed integers (four bits per place: 0 off, 1-24 the points, 25 the
 * bar, each side in its own view), held here as unsigned 128-bit integers. movegen.py stays the
 * reference and the fallback; hatch_build.py compiles this file when a C compiler is present,
 * and LUDOTHEQUE_PURE_PYTHON=1 makes the package ignore it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <structmember.h>

typedef unsigned __int128 u128;

#define BAR_SHIFT 100
#define NIBBLE(b, p) ((int)(((b) >> ((p) << 2)) & 15))
#define ONE(p) (((u128)1) << ((p) << 2))

static u128 ONES; /* one bit per nibble 1..25 */

/* -- conversions -------------------------------------------------------------------------- */

static int to_board(PyObject *obj, u128 *out) {
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

static PyObject *from_board(u128 v) {
    if ((v >> 64) == 0) return PyLong_FromUnsignedLongLong((unsigned long long)v);
    unsigned char buf[16];
    for (int i = 0; i < 16; i++) {
        buf[i] = (unsigned char)(v & 0xff);
        v >>= 8;
    }
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(buf, 16, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(buf, 16, 1, 0);
#endif
}

/* -- single moves (movegen.singles) ------------------------------------------------------- */

typedef struct {
    int8_t src, dst, die, hit;
    u128 me, opp;
} Single;

typedef struct {
    int8_t src, dst, die, hit;
} Raw;

static int highest_place(u128 m) {
    uint64_t hi = (uint64_t)(m >> 64);
    if (hi) return (127 - __builtin_clzll(hi)) >> 2;
    uint64_t lo = (uint64_t)m;
    return lo ? (63 - __builtin_clzll(lo)) >> 2 : -1;
}

/* dice ascending (distinct values); returns how many single moves were written to out (<= 32) */
static int singles(u128 me, u128 opp, const int *dice, int ndice, int cap, int top, Single *out) {
    int n = 0;
    if ((me >> BAR_SHIFT) & 15) {
        if (top < 25) return 0;
        for (int i = 0; i < ndice; i++) {
            int d = dice[i], dst = 25 - d;
            int oc = NIBBLE(opp, d);
            if (oc >= 2) continue;
            if (cap && NIBBLE(me, dst) >= cap) continue;
            Single *s = &out[n++];
            s->src = 25;
            s->dst = (int8_t)dst;
            s->die = (int8_t)d;
            s->hit = oc ? 1 : 0;
            s->me = me - ONE(25) + ONE(dst);
            s->opp = oc ? opp - ONE(d) + ONE(25) : opp;
        }
        return n;
    }
    int home = (me >> 28) == 0;
    u128 occ = me | (me >> 1) | (me >> 2) | (me >> 3);
    occ &= ONES;
    if (top < 24) occ &= (((u128)1) << ((top + 1) << 2)) - 1;
    while (occ) {
        int src = highest_place(occ);
        occ &= ~(((u128)1) << (src << 2));
        for (int i = 0; i < ndice; i++) {
            int d = dice[i], dst = src - d;
            if (dst > 0) {
                int oc = NIBBLE(opp, 25 - dst);
                if (oc >= 2) continue;
                if (cap && NIBBLE(me, dst) >= cap) continue;
                Single *s = &out[n++];
                s->src = (int8_t)src;
                s->dst = (int8_t)dst;
                s->die = (int8_t)d;
                s->hit = oc ? 1 : 0;
                s->me = me - ONE(src) + ONE(dst);
                s->opp = oc ? opp - ONE(25 - dst) + ONE(25) : opp;
            } else if (home && (dst == 0 || (me >> ((src + 1) << 2)) == 0)) {
                Single *s = &out[n++];
                s->src = (int8_t)src;
                s->dst = 0;
                s->die = (int8_t)d;
                s->hit = 0;
                s->me = me - ONE(src) + 1;
                s->opp = opp;
            }
        }
    }
    return n;
}

/* -- the plays found: positions in the order first met, with their single moves ------------- */

typedef struct {
    u128 me, opp;
    int nsteps;
    Raw steps[4];
} Leaf;

static Leaf *leaves = NULL;
static int nleaves = 0, leaf_capacity = 0;
static int32_t *leaf_index = NULL; /* hash slot -> leaf number, valid when stamp matches */
static uint32_t *leaf_stamp = NULL;
static uint32_t stamp = 1;
static int slots = 0; /* a power of two, at least 2 * leaf_capacity */

typedef struct {
    u128 me, opp;
    int left;
} SeenKey;
static SeenKey *seen_keys = NULL;
static uint32_t *seen_stamp = NULL;
static int seen_slots = 0, nseen = 0;

static uint64_t hash2(u128 a, u128 b, uint64_t extra) {
    uint64_t h = (uint64_t)a * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(a >> 64) * 0xC2B2AE3D27D4EB4Full;
    h ^= (uint64_t)b * 0x165667B19E3779F9ull;
    h ^= (uint64_t)(b >> 64) * 0x27D4EB2F165667C5ull;
    h ^= extra * 0x85EBCA77C2B2AE63ull;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return h;
}

static void clear_leaves(void) {
    nleaves = 0;
    if (++stamp == 0) { /* wrapped: forget every stamp */
        memset(leaf_stamp, 0, sizeof(uint32_t) * (size_t)slots);
        stamp = 1;
    }
}

static int grow_leaves(void) {
    int capacity = leaf_capacity ? leaf_capacity * 2 : 1024;
    Leaf *grown = PyMem_Realloc(leaves, sizeof(Leaf) * (size_t)capacity);
    if (grown == NULL) return -1;
    leaves = grown;
    leaf_capacity = capacity;
    int nslots = capacity * 4;
    int32_t *index = PyMem_Malloc(sizeof(int32_t) * (size_t)nslots);
    uint32_t *stamps = PyMem_Calloc((size_t)nslots, sizeof(uint32_t));
    if (index == NULL || stamps == NULL) {
        PyMem_Free(index);
        PyMem_Free(stamps);
        return -1;
    }
    PyMem_Free(leaf_index);
    PyMem_Free(leaf_stamp);
    leaf_index = index;
    leaf_stamp = stamps;
    slots = nslots;
    stamp = 1;
    for (int i = 0; i < nleaves; i++) { /* re-index */
        uint64_t h = hash2(leaves[i].me, leaves[i].opp, 0) & (uint64_t)(slots - 1);
        while (leaf_stamp[h] == stamp) h = (h + 1) & (uint64_t)(slots - 1);
        leaf_stamp[h] = stamp;
        leaf_index[h] = i;
    }
    return 0;
}

/* adds the position with its steps unless it is there already; -1 on memory error */
static int add_leaf(u128 me, u128 opp, const Raw *steps, int nsteps) {
    if (nleaves >= leaf_capacity && grow_leaves() < 0) return -1;
    uint64_t h = hash2(me, opp, 0) & (uint64_t)(slots - 1);
    while (leaf_stamp[h] == stamp) {
        Leaf *l = &leaves[leaf_index[h]];
        if (l->me == me && l->opp == opp) return 0;
        h = (h + 1) & (uint64_t)(slots - 1);
    }
    leaf_stamp[h] = stamp;
    leaf_index[h] = nleaves;
    Leaf *l = &leaves[nleaves++];
    l->me = me;
    l->opp = opp;
    l->nsteps = nsteps;
    memcpy(l->steps, steps, sizeof(Raw) * (size_t)nsteps);
    return 0;
}

static void reindex_leaves(void) {
    if (++stamp == 0) {
        memset(leaf_stamp, 0, sizeof(uint32_t) * (size_t)slots);
        stamp = 1;
    }
    for (int i = 0; i < nleaves; i++) {
        uint64_t h = hash2(leaves[i].me, leaves[i].opp, 0) & (uint64_t)(slots - 1);
        while (leaf_stamp[h] == stamp) h = (h + 1) & (uint64_t)(slots - 1);
        leaf_stamp[h] = stamp;
        leaf_index[h] = i;
    }
}

/* whether (me, opp, left) was met before in this search; adds it. -1 on memory error */
static uint32_t seen_current = 1;
static int seen_before(u128 me, u128 opp, int left) {
    if (nseen * 2 >= seen_slots) {
        int nslots = seen_slots ? seen_slots * 2 : 4096;
        SeenKey *keys = PyMem_Malloc(sizeof(SeenKey) * (size_t)nslots);
        uint32_t *stamps = PyMem_Calloc((size_t)nslots, sizeof(uint32_t));
        if (keys == NULL || stamps == NULL) {
            PyMem_Free(keys);
            PyMem_Free(stamps);
            return -1;
        }
        for (int i = 0; i < seen_slots; i++) { /* move the current entries */
            if (seen_stamp[i] != seen_current) continue;
            uint64_t h = hash2(seen_keys[i].me, seen_keys[i].opp, (uint64_t)seen_keys[i].left) &
                         (uint64_t)(nslots - 1);
            while (stamps[h] == 1) h = (h + 1) & (uint64_t)(nslots - 1);
            stamps[h] = 1;
            keys[h] = seen_keys[i];
        }
        PyMem_Free(seen_keys);
        PyMem_Free(seen_stamp);
        seen_keys = keys;
        seen_stamp = stamps;
        seen_slots = nslots;
        seen_current = 1;
    }
    uint64_t h = hash2(me, opp, (uint64_t)left) & (uint64_t)(seen_slots - 1);
    while (seen_stamp[h] == seen_current) {
        SeenKey *k = &seen_keys[h];
        if (k->me == me && k->opp == opp && k->left == left) return 1;
        h = (h + 1) & (uint64_t)(seen_slots - 1);
    }
    seen_stamp[h] = seen_current;
    seen_keys[h].me = me;
    seen_keys[h].opp = opp;
    seen_keys[h].left = left;
    nseen++;
    return 0;
}

static void clear_seen(void) {
    nseen = 0;
    if (++seen_current == 0) {
        if (seen_stamp) memset(seen_stamp, 0, sizeof(uint32_t) * (size_t)seen_slots);
        seen_current = 1;
    }
}

/* -- the search (movegen.generate) --------------------------------------------------------- */

static int best;
static int failed; /* a memory error during a search */

static void note_stuck(u128 me, u128 opp, int used, const Raw *steps) {
    if (used > best) {
        best = used;
        clear_leaves();
    }
    if (used == best && add_leaf(me, opp, steps, used) < 0) failed = 1;
}

static void note_full(u128 me, u128 opp, const Raw *steps) {
    if (best < 4) {
        best = 4;
        clear_leaves();
    }
    if (add_leaf(me, opp, steps, 4) < 0) failed = 1;
}

static void walk_capped(u128 me, u128 opp, int die, int cap, int left, Raw *steps) {
    Single moves[32];
    int dice[1] = {die};
    int n = singles(me, opp, dice, 1, cap, 25, moves);
    int used = 4 - left;
    if (n == 0) {
        note_stuck(me, opp, used, steps);
        return;
    }
    left -= 1;
    for (int i = 0; i < n && !failed; i++) {
        Single *s = &moves[i];
        Raw *r = &steps[used];
        r->src = s->src;
        r->dst = s->dst;
        r->die = s->die;
        r->hit = s->hit;
        if (left == 0) {
            note_full(s->me, s->opp, steps);
            continue;
        }
        int met = seen_before(s->me, s->opp, left);
        if (met < 0) {
            failed = 1;
            return;
        }
        if (met) continue;
        walk_capped(s->me, s->opp, die, cap, left, steps);
    }
}

static void walk_descending(u128 me, u128 opp, int die, int left, int top, Raw *steps) {
    Single moves[32];
    int dice[1] = {die};
    int n = singles(me, opp, dice, 1, 0, top, moves);
    int used = 4 - left;
    for (int i = 0; i < n && !failed; i++) {
        Single *s = &moves[i];
        Raw *r = &steps[used];
        r->src = s->src;
        r->dst = s->dst;
        r->die = s->die;
        r->hit = s->hit;
        if (left > 1) {
            walk_descending(s->me, s->opp, die, left - 1, s->src, steps);
            continue;
        }
        note_full(s->me, s->opp, steps);
    }
    if (n == 0) note_stuck(me, opp, used, steps);
}

/* fills leaves/nleaves and best; -1 on memory error */
static int search(u128 me, u128 opp, int high, int low, int cap) {
    best = 0;
    failed = 0;
    if (leaf_capacity == 0 && grow_leaves() < 0) return -1;
    clear_leaves();
    Raw steps[4];
    if (high == low) {
        if (cap) {
            clear_seen();
            walk_capped(me, opp, high, cap, 4, steps);
        } else {
            walk_descending(me, opp, high, 4, 25, steps);
        }
    } else {
        Single firsts[32], seconds[32];
        int both[2] = {low, high};
        int n = singles(me, opp, both, 2, cap, 25, firsts);
        int large_used = 0;
        for (int i = 0; i < n && !failed; i++) {
            Single *f = &firsts[i];
            steps[0].src = f->src;
            steps[0].dst = f->dst;
            steps[0].die = f->die;
            steps[0].hit = f->hit;
            int other[1] = {f->die == low ? high : low};
            int m = singles(f->me, f->opp, other, 1, cap, 25, seconds);
            if (m) {
                if (best < 2) {
                    best = 2;
                    clear_leaves();
                }
                for (int j = 0; j < m; j++) {
                    Single *s = &seconds[j];
                    steps[1].src = s->src;
                    steps[1].dst = s->dst;
                    steps[1].die = s->die;
                    steps[1].hit = s->hit;
                    if (add_leaf(s->me, s->opp, steps, 2) < 0) return -1;
                }
            } else if (best < 2) {
                best = 1;
                if (f->die == high && !large_used) {
                    large_used = 1;
                    int kept = 0; /* keep the plays whose die is the high one, in order */
                    for (int k = 0; k < nleaves; k++)
                        if (leaves[k].steps[0].die == high) leaves[kept++] = leaves[k];
                    nleaves = kept;
                    reindex_leaves();
                }
                if (f->die == high || !large_used)
                    if (add_leaf(f->me, f->opp, steps, 1) < 0) return -1;
            }
        }
    }
    if (failed) return -1;
    if (best == 0) { /* a pass: the position unchanged, no single move */
        clear_leaves();
        if (add_leaf(me, opp, steps, 0) < 0) return -1;
    }
    return 0;
}

/* -- the Python functions ------------------------------------------------------------------ */

static PyObject *PlayType = NULL; /* moves.Play, a NamedTuple (raw, mover_after, opponent_after) */

/* the single moves as Python tuples (src, dst, die, hit), made once and shared: a step is fixed
   by its origin, die and whether it hits */
static PyObject *step_cache[26][7][2];

static PyObject *step_tuple(const Raw *r) {
    PyObject **slot = &step_cache[r->src][r->die][r->hit ? 1 : 0];
    if (*slot == NULL) {
        *slot = Py_BuildValue("(iiiO)", r->src, r->dst, r->die, r->hit ? Py_True : Py_False);
        if (*slot == NULL) return NULL;
    }
    Py_INCREF(*slot);
    return *slot;
}

static PyObject *raw_steps(const Leaf *l) {
    PyObject *raw = PyTuple_New(l->nsteps);
    if (raw == NULL) return NULL;
    for (int k = 0; k < l->nsteps; k++) {
        PyObject *step = step_tuple(&l->steps[k]);
        if (step == NULL) {
            Py_DECREF(raw);
            return NULL;
        }
        PyTuple_SET_ITEM(raw, k, step);
    }
    return raw;
}

/* a board as a Python int: ``same`` (a new reference) when it is the board ``value`` */
static PyObject *board_object(u128 v, u128 value, PyObject *same) {
    if (v == value) {
        Py_INCREF(same);
        return same;
    }
    return from_board(v);
}

static int read_roll(PyObject *const *args, Py_ssize_t nargs, u128 *me, u128 *opp, int *high,
                     int *low, int *cap) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "expected (me, opp, high, low, cap)");
        return -1;
    }
    if (to_board(args[0], me) < 0 || to_board(args[1], opp) < 0) return -1;
    long h = PyLong_AsLong(args[2]), l = PyLong_AsLong(args[3]), c = PyLong_AsLong(args[4]);
    if (PyErr_Occurred()) return -1;
    if (l < 1 || h > 6 || l > h || c < 0 || c > 15) {
        PyErr_SetString(PyExc_ValueError, "not a roll (high >= low, 1-6) and a cap (0-15)");
        return -1;
    }
    *high = (int)h;
    *low = (int)l;
    *cap = (int)c;
    return 0;
}

/* runs the search and copies its plays out of the shared buffers (building Python values may
   run a garbage collection, and with it any code, which might search again) */
static int found_leaves(u128 me, u128 opp, int high, int low, int cap, Leaf **out, int *n,
                        int *used) {
    if (search(me, opp, high, low, cap) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    *out = PyMem_Malloc(sizeof(Leaf) * (size_t)(nleaves ? nleaves : 1));
    if (*out == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(*out, leaves, sizeof(Leaf) * (size_t)nleaves);
    *n = nleaves;
    *used = best;
    return 0;
}

/* generate(me, opp, high, low, cap) -> ({(me_after, opp_after): raw steps}, dice used) */
static PyObject *generate(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    u128 me, opp;
    int high, low, cap;
    if (read_roll(args, nargs, &me, &opp, &high, &low, &cap) < 0) return NULL;
    Leaf *mine;
    int n, used;
    if (found_leaves(me, opp, high, low, cap, &mine, &n, &used) < 0) return NULL;
    PyObject *found = PyDict_New();
    if (found == NULL) {
        PyMem_Free(mine);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyObject *m = board_object(mine[i].me, me, args[0]);
        PyObject *o = board_object(mine[i].opp, opp, args[1]);
        PyObject *key = (m && o) ? PyTuple_Pack(2, m, o) : NULL;
        Py_XDECREF(m);
        Py_XDECREF(o);
        PyObject *raw = key ? raw_steps(&mine[i]) : NULL;
        if (raw == NULL || PyDict_SetItem(found, key, raw) < 0) {
            Py_XDECREF(key);
            Py_XDECREF(raw);
            Py_DECREF(found);
            PyMem_Free(mine);
            return NULL;
        }
        Py_DECREF(key);
        Py_DECREF(raw);
    }
    PyMem_Free(mine);
    return Py_BuildValue("(Ni)", found, used);
}

/* plays(me, opp, high, low, cap) -> [Play(raw, mover_after, opponent_after), ...] */
static PyObject *plays(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (PlayType == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "setup() was not called");
        return NULL;
    }
    u128 me, opp;
    int high, low, cap;
    if (read_roll(args, nargs, &me, &opp, &high, &low, &cap) < 0) return NULL;
    Leaf *mine;
    int n, used;
    if (found_leaves(me, opp, high, low, cap, &mine, &n, &used) < 0) return NULL;
    PyObject *out = PyList_New(n);
    if (out == NULL) {
        PyMem_Free(mine);
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)PlayType;
    for (int i = 0; i < n; i++) {
        /* a NamedTuple is a tuple subclass without a dict: allocated and filled as
           tuple.__new__ does for a subclass */
        PyObject *raw = raw_steps(&mine[i]);
        PyObject *m = board_object(mine[i].me, me, args[0]);
        PyObject *o = board_object(mine[i].opp, opp, args[1]);
        PyObject *play = (raw && m && o) ? type->tp_alloc(type, 3) : NULL;
        if (play == NULL) {
            Py_XDECREF(raw);
            Py_XDECREF(m);
            Py_XDECREF(o);
            Py_DECREF(out);
            PyMem_Free(mine);
            return NULL;
        }
        PyTuple_SET_ITEM(play, 0, raw);
        PyTuple_SET_ITEM(play, 1, m);
        PyTuple_SET_ITEM(play, 2, o);
        PyList_SET_ITEM(out, i, play);
    }
    PyMem_Free(mine);
    return out;
}

/* listed(move, moves) -> bool: move in moves, asking first for the very object (a move taken
   from the list is found without comparing the others to it) */
static PyObject *listed(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2 || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "expected (move, list)");
        return NULL;
    }
    PyObject *move = args[0], *moves = args[1];
    Py_ssize_t n = PyList_GET_SIZE(moves);
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyList_GET_ITEM(moves, i) == move) Py_RETURN_TRUE;
    int found = PySequence_Contains(moves, move);
    if (found < 0) return NULL;
    return PyBool_FromLong(found);
}

/* -- random play-outs ---------------------------------------------------------------------- */

static uint64_t next_random(uint64_t *state) { /* splitmix64 */
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int below(uint64_t *state, int n) { /* uniform in 0..n-1 (Lemire; bias < 2^-50) */
    return (int)(((unsigned __int128)next_random(state) * (uint64_t)n) >> 64);
}

/* playout(white, black, side, high, low, cap, seed, plies) -> (white, black, side, high, low,
   plies played): uniformly random legal plays and random rolls from a position of a cubeless
   game (side 0 white or 1 black to move, high and low its roll or 0 0 before it), until the
   game ends (side -1 then) or ``plies`` plays were made (plies < 0: no limit) */
static PyObject *playout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError,
                        "expected (white, black, side, high, low, cap, seed, plies)");
        return NULL;
    }
    u128 board[2];
    if (to_board(args[0], &board[0]) < 0 || to_board(args[1], &board[1]) < 0) return NULL;
    long side = PyLong_AsLong(args[2]), high = PyLong_AsLong(args[3]);
    long low = PyLong_AsLong(args[4]), cap = PyLong_AsLong(args[5]);
    uint64_t seed = PyLong_AsUnsignedLongLongMask(args[6]);
    long limit = PyLong_AsLong(args[7]);
    if (PyErr_Occurred()) return NULL;
    if ((side != 0 && side != 1) || cap < 0 || cap > 15 ||
        !((high == 0 && low == 0) || (1 <= low && low <= high && high <= 6))) {
        PyErr_SetString(PyExc_ValueError, "not a position of a game in progress");
        return NULL;
    }
    uint64_t random_state = seed;
    long played = 0;
    while (limit < 0 || played < limit) {
        if (high == 0) {
            int a = 1 + below(&random_state, 6), b = 1 + below(&random_state, 6);
            high = a > b ? a : b;
            low = a > b ? b : a;
        }
        if (search(board[side], board[1 - side], (int)high, (int)low, (int)cap) < 0)
            return PyErr_NoMemory();
        const Leaf *chosen = &leaves[below(&random_state, nleaves)];
        board[side] = chosen->me;
        board[1 - side] = chosen->opp;
        played++;
        high = low = 0;
        if ((board[side] & 15) == 15) {
            side = -1;
            break;
        }
        side = 1 - side;
    }
    PyObject *white = from_board(board[0]), *black = from_board(board[1]);
    if (white == NULL || black == NULL) {
        Py_XDECREF(white);
        Py_XDECREF(black);
        return NULL;
    }
    return Py_BuildValue("(NNllll)", white, black, side, high, low, played);
}

static PyObject *setup(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *play;
    if (!PyArg_ParseTuple(args, "O!", &PyType_Type, &play)) return NULL;
    PyTypeObject *type = (PyTypeObject *)play;
    if (!PyType_IsSubtype(type, &PyTuple_Type) || type->tp_dictoffset != 0) {
        PyErr_SetString(PyExc_TypeError, "Play must be a NamedTuple (a tuple without a dict)");
        return NULL;
    }
    Py_INCREF(play);
    Py_XSETREF(PlayType, play);
    Py_RETURN_NONE;
}

/* -- states (rules.py's _make) ------------------------------------------------------------ */

/* state_setup(cls, slots, unset): the engine's state class (rules.py's BackgammonState), the
 * member descriptors of its slots _game, _white, _black, _side, _dice, _moves, _outcome and
 * _stakes, in this order, and its marker of a value not computed yet; then
 * state(game, white, black, side, dice[, stakes]) makes a state as rules.py's _make_py() does
 * (its moves and outcome not computed yet; no stakes: None), in one allocation and eight
 * stores. */
#define STATE_SLOTS 8
static PyTypeObject *state_type = NULL;
static Py_ssize_t state_offsets[STATE_SLOTS];
static PyObject *state_unset = NULL;

static PyObject *state_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3 || !PyType_Check(args[0]) || !PyTuple_Check(args[1]) ||
        PyTuple_GET_SIZE(args[1]) != STATE_SLOTS) {
        PyErr_SetString(PyExc_TypeError, "state_setup(cls, slots: 8 descriptors, unset)");
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)args[0];
    Py_ssize_t offsets[STATE_SLOTS];
    for (int i = 0; i < STATE_SLOTS; i++) {
        PyObject *d = PyTuple_GET_ITEM(args[1], i);
        if (!Py_IS_TYPE(d, &PyMemberDescr_Type) ||
            !PyType_IsSubtype(cls, ((PyMemberDescrObject *)d)->d_common.d_type)) {
            PyErr_SetString(PyExc_TypeError, "a slot of the class is a member descriptor");
            return NULL;
        }
        PyMemberDef *member = ((PyMemberDescrObject *)d)->d_member;
        if (member->type != T_OBJECT_EX || member->flags & READONLY || member->offset <= 0 ||
            member->offset + (Py_ssize_t)sizeof(PyObject *) > cls->tp_basicsize) {
            PyErr_SetString(PyExc_TypeError, "a slot holds an object");
            return NULL;
        }
        offsets[i] = member->offset;
    }
    if (cls->tp_itemsize != 0 || cls->tp_alloc == NULL) {
        PyErr_SetString(PyExc_TypeError, "a class of fixed-size instances");
        return NULL;
    }
    Py_INCREF(args[0]);
    Py_XSETREF(state_type, cls);
    Py_INCREF(args[2]);
    Py_XSETREF(state_unset, args[2]);
    memcpy(state_offsets, offsets, sizeof offsets);
    Py_RETURN_NONE;
}

static PyObject *make_state(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 5 && nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "state(game, white, black, side, dice, stakes=None)");
        return NULL;
    }
    if (state_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "state_setup() was not called");
        return NULL;
    }
    PyObject *state = state_type->tp_alloc(state_type, 0); /* zeroed */
    if (state == NULL) return NULL;
    PyObject *values[STATE_SLOTS] = {args[0], args[1], args[2], args[3], args[4],
                                     state_unset, state_unset, nargs == 6 ? args[5] : Py_None};
    for (int i = 0; i < STATE_SLOTS; i++) {
        Py_INCREF(values[i]);
        *(PyObject **)((char *)state + state_offsets[i]) = values[i];
    }
    return state;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, "setup(Play): the class of plays, once."},
    {"generate", (PyCFunction)(void (*)(void))generate, METH_FASTCALL,
     "generate(me, opp, high, low, cap) -> (plays by final position, dice used)."},
    {"plays", (PyCFunction)(void (*)(void))plays, METH_FASTCALL,
     "plays(me, opp, high, low, cap) -> list of Play."},
    {"playout", (PyCFunction)(void (*)(void))playout, METH_FASTCALL,
     "playout(white, black, side, high, low, cap, seed, plies) -> the position reached."},
    {"listed", (PyCFunction)(void (*)(void))listed, METH_FASTCALL,
     "listed(move, moves) -> whether move is in the list moves (the object itself first)."},
    {"state_setup", (PyCFunction)(void (*)(void))state_setup, METH_FASTCALL,
     "state_setup(cls, slots, unset): the engine's state class, once."},
    {"state", (PyCFunction)(void (*)(void))make_state, METH_FASTCALL,
     "state(game, white, black, side, dice, stakes=None): a state, as the engine's _make."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cbackgammon",
    "The compiled backgammon move generation (see movegen.py).", -1, methods, NULL, NULL, NULL,
    NULL,
};

/* the interface version movegen.py expects (raise it with any change of the functions) */
#define VERSION 2

PyMODINIT_FUNC PyInit__cbackgammon(void) {
    ONES = 0;
    for (int p = 1; p <= 25; p++) ONES |= ONE(p);
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "VERSION", VERSION) < 0) Py_CLEAR(m);
    return m;
}

/* The optional compiled core of backgammon: the legal plays of a roll (movegen.py's generate(),
 * the same plays in the same order, each with the same canonical single moves), built straight
 * into the values the engine uses, random play-outs for roll-outs, the engine's states made
 * in one allocation (rules.py's _make()), and the evaluation: the network's inputs and forward
 * pass, the bear-off databases, and every roll's plays from a batch of positions with their
 * chances (network.py's and search.py's, which stay the reference).
 *
 * Boards are movegen.py's packed integers (four bits per place: 0 off, 1-24 the points, 25 the
 * bar, each side in its own view), held here as unsigned 128-bit integers. movegen.py stays the
 * reference and the fallback; hatch_build.py compiles this file when a C compiler is present,
 * and LUDOTHEQUE_PURE_PYTHON=1 makes the package ignore it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
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

/* -- the evaluation (network.py's chances_of_counts) ------------------------------------------
 *
 * Positions are rows of 52 counts: the side on roll's 26 (0 off, 1-24, 25 bar, its own view),
 * then the other side's 26 (its own view). The network's inputs are network.py's second
 * encoding (INPUTS2, 220), built as tools/backgammon_numba.py's kernels build them; its layers
 * are sigmoid layers computed in double precision from the weights network.py gives
 * (net_load). When both sides are bearing off, the bear-off databases answer (bearoff.py):
 * the two-sided one (exact chances of the race played to win) when both sides are in it, else
 * the one-sided one. network.py stays the reference and the fallback. */

#define RAW_UNITS 96
#define SIDE1 (RAW_UNITS + 8)
#define SIDE2 (SIDE1 + 5)
#define INPUTS2 (2 * SIDE2 + 2)
#define OUTPUTS 5
#define MAX_LAYERS 3
#define MAX_UNITS 1024 /* padded units of a layer, at most */
#define NETS 2 /* slot 0: every position; slot 1 (when loaded): races (no contact) */
#define FULL_POINTS 0x1FFFFFEll

typedef struct {
    int layers;
    int sizes[MAX_LAYERS + 1]; /* inputs, then each layer's units */
    int padded[MAX_LAYERS + 1]; /* the same rounded up to a multiple of CHUNK */
    /* the first layer's weights by input (inputs x padded[1]); each later layer's by unit
       (sizes[k + 1] x padded[k], transposed); zeros in the padding */
    double *weights[MAX_LAYERS];
    double *biases[MAX_LAYERS]; /* padded[k + 1] each, zeros in the padding */
} Net;

#define CHUNK 16

static Net nets[NETS];
static int32_t escape_rolls[4096]; /* network.escape_table() */
static int escapes_ready = 0;

static int dice_high[21], dice_low[21];
static double roll_weight[21];

static void init_rolls(void) {
    int k = 0;
    for (int h = 1; h <= 6; h++)
        for (int l = 1; l <= h; l++) {
            dice_high[k] = h;
            dice_low[k] = l;
            roll_weight[k] = (h == l ? 1.0 : 2.0) / 36.0;
            k++;
        }
}

static int rearmost(const uint8_t *c) {
    for (int p = 25; p > 0; p--)
        if (c[p]) return p;
    return 0;
}

static int pip_count(const uint8_t *c) {
    int s = 0;
    for (int p = 1; p < 26; p++) s += p * c[p];
    return s;
}

/* the blocking-aware chance that ``other`` hits a blot of ``own`` next roll, and the pips lost
   to the worst such hit on average (network.hit_chances) */
static void hit_chances(const uint8_t *own, const uint8_t *other, double *chance, double *loss) {
    int64_t open = 0, blots = 0, src = 0;
    for (int b = 1; b < 25; b++) {
        if (own[b] < 2) open |= (int64_t)1 << b;
        if (own[b] == 1) blots |= (int64_t)1 << b;
        if (other[25 - b]) src |= (int64_t)1 << b;
    }
    *chance = 0.0;
    *loss = 0.0;
    if (!blots) return;
    int bar = other[25];
    double c = 0.0, l = 0.0;
    for (int k = 0; k < 21; k++) {
        int d1 = dice_high[k], d2 = dice_low[k];
        int64_t reach = 0;
        if (d1 == d2) {
            int d = d1, steps = 4;
            int64_t cur = src;
            if (bar > 0) {
                if (!((open >> d) & 1)) continue;
                reach = (int64_t)1 << d;
                steps = bar < 4 ? 4 - bar : 0;
                cur = src | ((int64_t)1 << d);
            }
            for (int s = 0; s < steps; s++) {
                int64_t moved = (cur << d) & FULL_POINTS;
                reach |= moved;
                cur = moved & open;
            }
        } else if (bar >= 2) {
            reach = (((int64_t)1 << d1) | ((int64_t)1 << d2)) & open;
        } else if (bar == 1) {
            for (int i = 0; i < 2; i++) {
                int di = i == 0 ? d1 : d2, dj = i == 0 ? d2 : d1;
                if ((open >> di) & 1)
                    reach |= ((int64_t)1 << di) | ((int64_t)1 << (di + dj)) |
                             ((src << dj) & FULL_POINTS);
            }
        } else {
            int64_t a = (src << d1) & FULL_POINTS, b = (src << d2) & FULL_POINTS;
            reach = (a | b | ((a & open) << d2) | ((b & open) << d1)) & FULL_POINTS;
        }
        int64_t hit = reach & blots;
        if (hit) {
            int lowest = __builtin_ctzll((unsigned long long)hit);
            c += roll_weight[k];
            l += roll_weight[k] * (25 - lowest);
        }
    }
    *chance = c;
    *loss = l / 24.0;
}

static int escapes_at(int64_t blocked, int p) {
    int64_t pattern = p >= 12 ? (blocked >> (p - 12)) & 4095 : (blocked << (12 - p)) & 4095;
    return escape_rolls[pattern];
}

/* one side's inputs (network._side with the second encoding's hit chance, then _extra) */
static void side_inputs(const uint8_t *own, const uint8_t *other, double *x) {
    for (int p = 1; p < 25; p++) {
        int n = own[p];
        double *u = x + 4 * (p - 1);
        u[0] = n >= 1;
        u[1] = n >= 2;
        u[2] = n >= 3;
        u[3] = n > 3 ? (n - 3) / 2.0 : 0.0;
    }
    int bar = own[25];
    x[RAW_UNITS] = bar >= 1;
    x[RAW_UNITS + 1] = bar > 1 ? (bar - 1) / 2.0 : 0.0;
    x[RAW_UNITS + 2] = own[0] / 15.0;
    x[RAW_UNITS + 3] = pip_count(own) / 200.0;
    double chance, loss;
    hit_chances(own, other, &chance, &loss);
    x[RAW_UNITS + 4] = chance;
    int rear = rearmost(own);
    x[RAW_UNITS + 5] = rear / 25.0;
    int best_run = 0, run = 0, home = 0;
    for (int p = 1; p < 25; p++) {
        if (own[p] >= 2) {
            run++;
            if (run > best_run) best_run = run;
            if (p <= 6) home++;
        } else {
            run = 0;
        }
    }
    x[RAW_UNITS + 6] = (best_run < 6 ? best_run : 6) / 6.0;
    x[RAW_UNITS + 7] = home / 6.0;
    double *e = x + SIDE1;
    e[0] = loss;
    int64_t blocked = 0;
    for (int b = 1; b < 25; b++)
        if (other[25 - b] >= 2) blocked |= (int64_t)1 << b;
    e[1] = rear > 0 ? escapes_at(blocked, rear) / 36.0 : 1.0;
    int least = 36;
    for (int p = 13; p < 25; p++) {
        int n = escapes_at(blocked, p);
        if (n < least) least = n;
    }
    e[2] = least / 36.0;
    int theirs = rearmost(other), front = 25 - theirs, pips = 0;
    for (int p = front + 1; p < 26; p++) pips += own[p] * (p - front);
    e[3] = theirs > 0 ? pips / 152.0 : 0.0;
    int made = 0;
    for (int q = 1; q < 7; q++) made += other[q] >= 2;
    e[4] = (made / 6.0) * (made / 6.0);
}

static int in_contact(const uint8_t *a, const uint8_t *b) {
    return rearmost(a) + rearmost(b) >= 25;
}

static void encode2(const uint8_t *on_roll, const uint8_t *other, double *x) {
    side_inputs(on_roll, other, x);
    side_inputs(other, on_roll, x + SIDE2);
    x[2 * SIDE2] = in_contact(on_roll, other);
    double mine = pip_count(on_roll), theirs = pip_count(other);
    x[2 * SIDE2 + 1] = (theirs - mine) / (mine + theirs + 1.0);
}

/* The forward pass is compiled twice where GCC can dispatch at load time (x86-64 Linux): for
   AVX2 and for any x86-64; loops written to be vectorised (O3 on these functions). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define KERNEL \
    __attribute__((target_clones("avx2", "default"), optimize("O3", "no-trapping-math")))
#else
#define KERNEL
#endif

/* the logistic function of each a[j] in place, with exp(-a[j]) to about 1e-15 relative and
   without branches (so that the loop is vectorised): x = k ln 2 + r, |r| <= ln 2 / 2, e^r by
   its Taylor series to r^12 / 12!, 2^k put in the exponent's bits */
KERNEL static void sigmoid_layer(double *a, int n) {
    for (int j = 0; j < n; j++) {
        double x = -a[j];
        x = x < -700.0 ? -700.0 : x;
        x = x > 700.0 ? 700.0 : x;
        const double shifter = 6755399441055744.0; /* 1.5 * 2^52: rounds to an integer */
        double kd = x * 1.4426950408889634 + shifter;
        int64_t ki;
        memcpy(&ki, &kd, sizeof ki);
        kd -= shifter;
        double r = x - kd * 0.6931471805599453 - kd * 2.3190468138462996e-17;
        double p = 1.0 / 479001600.0;
        p = p * r + 1.0 / 39916800.0;
        p = p * r + 1.0 / 3628800.0;
        p = p * r + 1.0 / 362880.0;
        p = p * r + 1.0 / 40320.0;
        p = p * r + 1.0 / 5040.0;
        p = p * r + 1.0 / 720.0;
        p = p * r + 1.0 / 120.0;
        p = p * r + 1.0 / 24.0;
        p = p * r + 1.0 / 6.0;
        p = p * r + 0.5;
        p = p * r + 1.0;
        p = p * r + 1.0;
        int64_t bits = (int64_t)((uint64_t)(ki + 1023) << 52);
        double scale;
        memcpy(&scale, &bits, sizeof scale);
        a[j] = 1.0 / (1.0 + p * scale);
    }
}

/* the first layer's sums: a = biases + the rows of the inputs that are not zero (idx, vals),
   CHUNK units at a time so that each chunk's sums stay in registers */
KERNEL static void first_layer(double *restrict a, const double *restrict w,
                               const double *restrict bias, const int *idx, const double *vals,
                               int nnz, int units) {
    for (int c = 0; c < units; c += CHUNK) {
        double acc[CHUNK];
        for (int j = 0; j < CHUNK; j++) acc[j] = bias[c + j];
        for (int t = 0; t < nnz; t++) {
            const double *row = w + (size_t)idx[t] * (size_t)units + c;
            double v = vals[t];
            for (int j = 0; j < CHUNK; j++) acc[j] += v * row[j];
        }
        for (int j = 0; j < CHUNK; j++) a[c + j] = acc[j];
    }
}

KERNEL static double dot(const double *restrict a, const double *restrict b, int n) {
    double acc[4] = {0.0, 0.0, 0.0, 0.0};
    for (int j = 0; j < n; j += 4)
        for (int k = 0; k < 4; k++) acc[k] += a[j + k] * b[j + k];
    return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

/* the network's five outputs for the inputs x (mostly zeros) */
static void forward(const Net *net, const double *x, double *out) {
    double a[MAX_UNITS], b[MAX_UNITS];
    int idx[INPUTS2];
    double vals[INPUTS2];
    int nnz = 0;
    for (int i = 0; i < net->sizes[0]; i++)
        if (x[i] != 0.0) {
            idx[nnz] = i;
            vals[nnz++] = x[i];
        }
    int units = net->padded[1];
    first_layer(a, net->weights[0], net->biases[0], idx, vals, nnz, units);
    sigmoid_layer(a, units);
    double *in = a, *next = b;
    for (int k = 1; k < net->layers; k++) {
        int n_in = net->padded[k], n_out = net->sizes[k + 1];
        const double *wk = net->weights[k];
        for (int j = 0; j < n_out; j++) next[j] = net->biases[k][j] + dot(wk + (size_t)j * (size_t)n_in, in, n_in);
        for (int j = n_out; j < net->padded[k + 1]; j++) next[j] = 0.0;
        sigmoid_layer(next, net->padded[k + 1]);
        double *t = in;
        in = next;
        next = t;
    }
    memcpy(out, in, sizeof(double) * OUTPUTS);
}

static void consistent(double *p) {
    for (int k = 0; k < OUTPUTS; k++) p[k] = p[k] < 0.0 ? 0.0 : p[k] > 1.0 ? 1.0 : p[k];
    if (p[1] > p[0]) p[1] = p[0];
    if (p[2] > p[1]) p[2] = p[1];
    if (p[3] > 1.0 - p[0]) p[3] = 1.0 - p[0];
    if (p[4] > p[3]) p[4] = p[3];
}

/* -- the bear-off databases (bearoff.py) -- */

#define BEAROFF_POSITIONS 54264
static double *bo_rolls = NULL, *bo_first = NULL; /* rows normalised, width columns */
static int bo_width = 0;
static uint16_t *bo_two = NULL; /* two-sided: on roll's index x positions + other's index */
static int bo_two_checkers = 0, bo_two_positions = 0;
static int binomial[32][8];

static void init_binomial(void) {
    for (int n = 0; n < 32; n++)
        for (int k = 0; k < 8; k++) {
            if (k == 0) binomial[n][k] = 1;
            else if (n == 0) binomial[n][k] = 0;
            else binomial[n][k] = binomial[n - 1][k - 1] + binomial[n - 1][k];
        }
}

static int bearoff_index(const uint8_t *c) {
    int total = 0, running = 0;
    for (int j = 1; j <= 6; j++) {
        running += c[j];
        total += binomial[running + j - 1][j];
    }
    return total;
}

static int both_home(const uint8_t *a, const uint8_t *b) {
    for (int p = 7; p < 26; p++)
        if (a[p] || b[p]) return 0;
    return 1;
}

static int on_board(const uint8_t *c) { return 15 - c[0]; }

static void bearoff_chances(const uint8_t *a, const uint8_t *b, double *out) {
    int ia = bearoff_index(a), ib = bearoff_index(b), w = bo_width;
    memset(out, 0, sizeof(double) * OUTPUTS);
    if (bo_two && on_board(a) <= bo_two_checkers && on_board(b) <= bo_two_checkers) {
        out[0] = bo_two[(size_t)ia * (size_t)bo_two_positions + (size_t)ib] / 65535.0;
        return; /* nine checkers or more off on both sides: no gammon */
    }
    const double *pa = bo_rolls + (size_t)ia * (size_t)w, *pb = bo_rolls + (size_t)ib * (size_t)w;
    double tail = 0.0, win = 0.0, surv[64];
    for (int n = w - 1; n >= 0; n--) surv[n] = (tail += pb[n]);
    for (int n = 0; n < w; n++) win += pa[n] * surv[n];
    out[0] = win;
    if (b[0] == 0) {
        const double *fb = bo_first + (size_t)ib * (size_t)w;
        double s = 0.0;
        tail = 0.0;
        for (int n = w - 1; n >= 0; n--) surv[n] = (tail += fb[n]);
        for (int n = 0; n < w; n++) s += pa[n] * surv[n];
        out[1] = s;
    }
    if (a[0] == 0) {
        const double *fa = bo_first + (size_t)ia * (size_t)w;
        double s = 0.0;
        tail = 0.0;
        surv[w] = 0.0;
        for (int n = w - 1; n >= 0; n--) surv[n] = (tail += fa[n]);
        for (int n = 0; n < w; n++) s += pb[n] * surv[n + 1];
        out[3] = s;
    }
}

/* the five chances of the side on roll (a) against b; -1 when no network is loaded */
static int chances_of(const uint8_t *a, const uint8_t *b, double *out) {
    if (bo_rolls && both_home(a, b)) {
        bearoff_chances(a, b, out);
        return 0;
    }
    const Net *net = &nets[0];
    if (nets[1].layers && !in_contact(a, b)) net = &nets[1];
    if (!net->layers) return -1;
    double x[INPUTS2];
    encode2(a, b, x);
    forward(net, x, out);
    consistent(out);
    return 0;
}

/* -- the Python functions of the evaluation -- */

static int read_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len % itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: a buffer of %zd-byte items", what, itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static double *copy_doubles(PyObject *obj, Py_ssize_t count, const char *what) {
    Py_buffer view;
    if (read_buffer(obj, &view, sizeof(double), what) < 0) return NULL;
    if (view.len != count * (Py_ssize_t)sizeof(double)) {
        PyErr_Format(PyExc_ValueError, "%s: %zd doubles expected", what, count);
        PyBuffer_Release(&view);
        return NULL;
    }
    double *out = PyMem_Malloc((size_t)view.len);
    if (out == NULL) PyErr_NoMemory();
    else memcpy(out, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    return out;
}

static void free_net(Net *net) {
    for (int k = 0; k < MAX_LAYERS; k++) {
        PyMem_Free(net->weights[k]);
        PyMem_Free(net->biases[k]);
        net->weights[k] = net->biases[k] = NULL;
    }
    net->layers = 0;
}

/* net_load(slot, layers): layers a list of (weights, biases) as float64 buffers (weights
   inputs x units, row-major), the first reading the 220 inputs, the last giving the 5 outputs;
   an empty list unloads the slot */
static PyObject *net_load(PyObject *self, PyObject *args) {
    (void)self;
    int slot;
    PyObject *layers;
    if (!PyArg_ParseTuple(args, "iO!", &slot, &PyList_Type, &layers)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(layers);
    if (slot < 0 || slot >= NETS || n > MAX_LAYERS) {
        PyErr_SetString(PyExc_ValueError, "a slot 0-1 and at most 3 layers");
        return NULL;
    }
    Net fresh;
    memset(&fresh, 0, sizeof fresh);
    fresh.sizes[0] = fresh.padded[0] = INPUTS2;
    double *w = NULL, *b = NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *pair = PyList_GET_ITEM(layers, k);
        PyObject *wo, *bo;
        if (!PyArg_ParseTuple(pair, "OO", &wo, &bo)) goto fail;
        Py_buffer view;
        if (read_buffer(bo, &view, sizeof(double), "biases") < 0) goto fail;
        Py_ssize_t units = view.len / (Py_ssize_t)sizeof(double);
        PyBuffer_Release(&view);
        if (units < 1 || units > MAX_UNITS - CHUNK || (k == n - 1 && units != OUTPUTS)) {
            PyErr_SetString(PyExc_ValueError, "1-1000 units a layer, 5 outputs");
            goto fail;
        }
        int n_in = fresh.sizes[k], pad_in = fresh.padded[k];
        int pad = (int)((units + CHUNK - 1) / CHUNK * CHUNK);
        fresh.sizes[k + 1] = (int)units;
        fresh.padded[k + 1] = pad;
        b = copy_doubles(bo, units, "biases");
        w = b ? copy_doubles(wo, units * n_in, "weights") : NULL;
        if (w == NULL) goto fail;
        double *wp = PyMem_Calloc((size_t)(k == 0 ? n_in * pad : (int)units * pad_in),
                                  sizeof(double));
        double *bp = PyMem_Calloc((size_t)pad, sizeof(double));
        fresh.layers = (int)k + 1;
        fresh.weights[k] = wp;
        fresh.biases[k] = bp;
        if (wp == NULL || bp == NULL) {
            PyErr_NoMemory();
            goto fail;
        }
        memcpy(bp, b, sizeof(double) * (size_t)units);
        for (int i = 0; i < n_in; i++)
            for (int j = 0; j < units; j++) {
                double v = w[(size_t)i * (size_t)units + (size_t)j];
                if (k == 0) wp[(size_t)i * (size_t)pad + (size_t)j] = v;
                else wp[(size_t)j * (size_t)pad_in + (size_t)i] = v;
            }
        PyMem_Free(w);
        PyMem_Free(b);
        w = b = NULL;
    }
    free_net(&nets[slot]);
    nets[slot] = fresh;
    Py_RETURN_NONE;
fail:
    PyMem_Free(w);
    PyMem_Free(b);
    free_net(&fresh);
    return NULL;
}

/* bearoff_load(rolls, first, width[, two_sided, checkers]): the one-sided database's rows
   (float64, normalised) and, when given, the two-sided one (uint16, win chances x 65535) */
static PyObject *bearoff_load(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rolls, *first, *two = Py_None;
    int width, checkers = 0;
    if (!PyArg_ParseTuple(args, "OOi|Oi", &rolls, &first, &width, &two, &checkers)) return NULL;
    if (width < 1 || width > 63 || checkers < 0 || checkers > 15) {
        PyErr_SetString(PyExc_ValueError, "a width 1-63 and 0-15 checkers");
        return NULL;
    }
    double *r = copy_doubles(rolls, (Py_ssize_t)BEAROFF_POSITIONS * width, "rolls");
    double *f = r ? copy_doubles(first, (Py_ssize_t)BEAROFF_POSITIONS * width, "first") : NULL;
    uint16_t *t = NULL;
    int positions = binomial[checkers + 6][6];
    if (f && two != Py_None) {
        Py_buffer view;
        if (read_buffer(two, &view, 2, "two-sided") == 0) {
            if (view.len != (Py_ssize_t)positions * positions * 2)
                PyErr_SetString(PyExc_ValueError, "two-sided: positions^2 uint16 expected");
            else if ((t = PyMem_Malloc((size_t)view.len)) == NULL)
                PyErr_NoMemory();
            else
                memcpy(t, view.buf, (size_t)view.len);
            PyBuffer_Release(&view);
        }
    }
    if (r == NULL || f == NULL || (two != Py_None && t == NULL)) {
        PyMem_Free(r);
        PyMem_Free(f);
        return NULL;
    }
    PyMem_Free(bo_rolls);
    PyMem_Free(bo_first);
    PyMem_Free(bo_two);
    bo_rolls = r;
    bo_first = f;
    bo_width = width;
    bo_two = t;
    bo_two_checkers = t ? checkers : 0;
    bo_two_positions = t ? positions : 0;
    Py_RETURN_NONE;
}

/* escapes_load(table): network.escape_table() as 4096 int32 */
static PyObject *escapes_load(PyObject *self, PyObject *arg) {
    (void)self;
    Py_buffer view;
    if (read_buffer(arg, &view, 4, "escapes") < 0) return NULL;
    if (view.len != 4096 * 4) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "escapes: 4096 int32 expected");
        return NULL;
    }
    memcpy(escape_rolls, view.buf, sizeof escape_rolls);
    PyBuffer_Release(&view);
    escapes_ready = 1;
    Py_RETURN_NONE;
}

static int ready(void) {
    if (!escapes_ready || !nets[0].layers || !bo_rolls) {
        PyErr_SetString(PyExc_RuntimeError, "load the network, the escapes and the bear-off first");
        return 0;
    }
    return 1;
}

/* the rows of a buffer of positions (52 counts each), checked */
static int read_positions(PyObject *obj, Py_buffer *view, Py_ssize_t *n) {
    if (read_buffer(obj, view, 52, "positions") < 0) return -1;
    *n = view->len / 52;
    const uint8_t *c = view->buf;
    for (Py_ssize_t i = 0; i < *n * 2; i++) {
        int total = 0;
        for (int p = 0; p < 26; p++) total += c[i * 26 + p];
        if (total != 15) {
            PyBuffer_Release(view);
            PyErr_SetString(PyExc_ValueError, "a side has 15 checkers");
            return -1;
        }
    }
    return 0;
}

/* encode(positions) -> bytes: the 220 inputs (float64) of each position */
static PyObject *encode(PyObject *self, PyObject *arg) {
    (void)self;
    if (!escapes_ready) {
        PyErr_SetString(PyExc_RuntimeError, "load the escapes first");
        return NULL;
    }
    Py_buffer view;
    Py_ssize_t n;
    if (read_positions(arg, &view, &n) < 0) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * INPUTS2 * (Py_ssize_t)sizeof(double));
    if (out != NULL) {
        double *x = (double *)PyBytes_AS_STRING(out);
        const uint8_t *c = view.buf;
        for (Py_ssize_t i = 0; i < n; i++) encode2(c + 52 * i, c + 52 * i + 26, x + INPUTS2 * i);
    }
    PyBuffer_Release(&view);
    return out;
}

/* evaluate(positions) -> bytes: the five chances (float64) of each position's side on roll */
static PyObject *evaluate(PyObject *self, PyObject *arg) {
    (void)self;
    if (!ready()) return NULL;
    Py_buffer view;
    Py_ssize_t n;
    if (read_positions(arg, &view, &n) < 0) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * OUTPUTS * (Py_ssize_t)sizeof(double));
    if (out != NULL) {
        double *p = (double *)PyBytes_AS_STRING(out);
        const uint8_t *c = view.buf;
        for (Py_ssize_t i = 0; i < n; i++) chances_of(c + 52 * i, c + 52 * i + 26, p + 5 * i);
    }
    PyBuffer_Release(&view);
    return out;
}

static u128 pack_counts(const uint8_t *c) {
    u128 v = 0;
    for (int p = 25; p >= 0; p--) v = (v << 4) | c[p];
    return v;
}

static void unpack_counts(u128 v, uint8_t *c) {
    for (int p = 0; p < 26; p++) c[p] = (uint8_t)NIBBLE(v, p);
}

/* the multiplier of a game the mover has just won: 1, 2 (gammon), 3 (backgammon) */
static int won_kind(u128 loser) {
    if (loser & 15) return 1;
    for (int p = 19; p < 26; p++)
        if (NIBBLE(loser, p)) return 3;
    return 2;
}

/* expand(positions, cap) -> (children, chances, ends, offsets): for each position (its side on
   roll moving) and each of the 21 rolls (high 1-6, low 1-high), the positions its legal plays
   leave, in the order movegen finds them, as rows of 52 counts with the other side now on roll
   first; their five chances for that side (zeros where the mover has won); ends, one byte a
   child: 0, or 1-3 (single, gammon, backgammon) where the mover has borne off its last
   checker; offsets (int32, 21 * positions + 1): where each roll's children begin */
static PyObject *expand(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *obj;
    int cap;
    if (!PyArg_ParseTuple(args, "Oi", &obj, &cap)) return NULL;
    if (cap < 0 || cap > 15) {
        PyErr_SetString(PyExc_ValueError, "a cap 0-15");
        return NULL;
    }
    if (!ready()) return NULL;
    Py_buffer view;
    Py_ssize_t n;
    if (read_positions(obj, &view, &n) < 0) return NULL;
    Py_ssize_t capacity = 1024, count = 0;
    uint8_t *kids = PyMem_Malloc((size_t)capacity * 52);
    uint8_t *ends = PyMem_Malloc((size_t)capacity);
    int32_t *offsets = PyMem_Malloc(sizeof(int32_t) * (size_t)(21 * n + 1));
    PyObject *result = NULL;
    if (kids == NULL || ends == NULL || offsets == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const uint8_t *c = view.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        u128 me = pack_counts(c + 52 * i), opp = pack_counts(c + 52 * i + 26);
        for (int k = 0; k < 21; k++) {
            offsets[21 * i + k] = (int32_t)count;
            if (search(me, opp, dice_high[k], dice_low[k], cap) < 0) {
                PyErr_NoMemory();
                goto done;
            }
            if (count + nleaves > capacity) {
                while (count + nleaves > capacity) capacity *= 2;
                uint8_t *k2 = PyMem_Realloc(kids, (size_t)capacity * 52);
                if (k2) kids = k2;
                uint8_t *e2 = k2 ? PyMem_Realloc(ends, (size_t)capacity) : NULL;
                if (e2) ends = e2;
                if (!k2 || !e2) {
                    PyErr_NoMemory();
                    goto done;
                }
            }
            for (int j = 0; j < nleaves; j++, count++) {
                unpack_counts(leaves[j].opp, kids + 52 * count);
                unpack_counts(leaves[j].me, kids + 52 * count + 26);
                ends[count] = (leaves[j].me & 15) == 15 ? (uint8_t)won_kind(leaves[j].opp) : 0;
            }
        }
    }
    offsets[21 * n] = (int32_t)count;
    PyObject *kid_bytes = PyBytes_FromStringAndSize((char *)kids, count * 52);
    PyObject *chances = PyBytes_FromStringAndSize(NULL, count * OUTPUTS * (Py_ssize_t)sizeof(double));
    PyObject *end_bytes = PyBytes_FromStringAndSize((char *)ends, count);
    PyObject *off_bytes = PyBytes_FromStringAndSize((char *)offsets, (21 * n + 1) * 4);
    if (kid_bytes && chances && end_bytes && off_bytes) {
        double *p = (double *)PyBytes_AS_STRING(chances);
        for (Py_ssize_t j = 0; j < count; j++) {
            if (ends[j]) memset(p + 5 * j, 0, sizeof(double) * OUTPUTS);
            else chances_of(kids + 52 * j, kids + 52 * j + 26, p + 5 * j);
        }
        result = PyTuple_Pack(4, kid_bytes, chances, end_bytes, off_bytes);
    }
    Py_XDECREF(kid_bytes);
    Py_XDECREF(chances);
    Py_XDECREF(end_bytes);
    Py_XDECREF(off_bytes);
done:
    PyBuffer_Release(&view);
    PyMem_Free(kids);
    PyMem_Free(ends);
    PyMem_Free(offsets);
    return result;
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
    {"net_load", net_load, METH_VARARGS,
     "net_load(slot, [(weights, biases), ...]): a network's layers (float64), slot 0 or 1."},
    {"bearoff_load", bearoff_load, METH_VARARGS,
     "bearoff_load(rolls, first, width[, two_sided, checkers]): the bear-off databases."},
    {"escapes_load", escapes_load, METH_O, "escapes_load(table): 4096 int32 escape counts."},
    {"encode", encode, METH_O, "encode(positions) -> the inputs (float64 bytes)."},
    {"evaluate", evaluate, METH_O, "evaluate(positions) -> five chances each (float64 bytes)."},
    {"expand", expand, METH_VARARGS,
     "expand(positions, cap) -> (children, chances, ends, offsets) for the 21 rolls."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cbackgammon",
    "The compiled backgammon move generation (see movegen.py).", -1, methods, NULL, NULL, NULL,
    NULL,
};

/* the interface version movegen.py expects (raise it with any change of the functions) */
#define VERSION 3

PyMODINIT_FUNC PyInit__cbackgammon(void) {
    ONES = 0;
    for (int p = 1; p <= 25; p++) ONES |= ONE(p);
    init_rolls();
    init_binomial();
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "VERSION", VERSION) < 0) Py_CLEAR(m);
    return m;
}

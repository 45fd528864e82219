/* The optional compiled core of Le Général et les rebelles: move generation on the packed
 * boards (the rebels and the general as bitmasks of the 29 points).
 *
 * It lists the interned move objects of moves.py, in the order of movegen.py (the pure-Python
 * code, which stays the reference and the fallback): setup() is given the Python tables once and
 * keeps references to them. Built at install when a C compiler is present (hatch_build.py);
 * LUDOTHEQUE_PURE_PYTHON=1 makes the package ignore it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define POINTS 29
#define MAX_STEPS 8
#define MAX_PAIRS 4

typedef struct {
    int dst;               /* the point stepped to (or the landing of a flight) */
    PyObject *plain;       /* the move without a capture */
    int npairs;
    uint32_t pair[MAX_PAIRS];
    PyObject *capture[MAX_PAIRS];
} Step;

static int ready = 0;
static int apex = -1;                         /* s4 */
static PyObject *tables = NULL;               /* keeps the move objects alive */
static uint32_t rebel_targets[POINTS];
static PyObject *rebel_move[POINTS][POINTS];  /* borrowed from tables */
static int nsteps[POINTS];
static Step steps[POINTS][MAX_STEPS];
static int nflights[POINTS];
static Step flights[POINTS][POINTS];

static int read_step(PyObject *entry, Step *step) {
    /* (point, plain move, ((pair mask, capturing move), ...)) */
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 3) {
        PyErr_SetString(PyExc_ValueError, "a step is (point, move, captures)");
        return -1;
    }
    step->dst = (int)PyLong_AsLong(PyTuple_GET_ITEM(entry, 0));
    step->plain = PyTuple_GET_ITEM(entry, 1);
    PyObject *captures = PyTuple_GET_ITEM(entry, 2);
    if (!PyTuple_Check(captures) || PyTuple_GET_SIZE(captures) > MAX_PAIRS) {
        PyErr_SetString(PyExc_ValueError, "captures are a tuple of at most four pairs");
        return -1;
    }
    step->npairs = (int)PyTuple_GET_SIZE(captures);
    for (int k = 0; k < step->npairs; k++) {
        PyObject *item = PyTuple_GET_ITEM(captures, k);
        step->pair[k] = (uint32_t)PyLong_AsUnsignedLong(PyTuple_GET_ITEM(item, 0));
        step->capture[k] = PyTuple_GET_ITEM(item, 1);
    }
    if (step->dst < 0 || step->dst >= POINTS) {
        PyErr_SetString(PyExc_ValueError, "a point out of the board");
        return -1;
    }
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *setup(PyObject *self, PyObject *args) {
    PyObject *rebel_rows, *targets, *general_steps, *flight_steps;
    if (!PyArg_ParseTuple(args, "O!O!O!O!i", &PyTuple_Type, &rebel_rows, &PyTuple_Type, &targets,
                          &PyTuple_Type, &general_steps, &PyTuple_Type, &flight_steps, &apex))
        return NULL;
    if (PyTuple_GET_SIZE(rebel_rows) != POINTS || PyTuple_GET_SIZE(targets) != POINTS ||
        PyTuple_GET_SIZE(general_steps) != POINTS || PyTuple_GET_SIZE(flight_steps) != POINTS) {
        PyErr_SetString(PyExc_ValueError, "tables of 29 points expected");
        return NULL;
    }
    for (int p = 0; p < POINTS; p++) {
        PyObject *row = PyTuple_GET_ITEM(rebel_rows, p);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != POINTS) {
            PyErr_SetString(PyExc_ValueError, "a row of rebel moves has 29 entries");
            return NULL;
        }
        for (int q = 0; q < POINTS; q++) rebel_move[p][q] = PyTuple_GET_ITEM(row, q);
        rebel_targets[p] = (uint32_t)PyLong_AsUnsignedLong(PyTuple_GET_ITEM(targets, p));
        PyObject *mine = PyTuple_GET_ITEM(general_steps, p);
        PyObject *flying = PyTuple_GET_ITEM(flight_steps, p);
        if (!PyTuple_Check(mine) || PyTuple_GET_SIZE(mine) > MAX_STEPS || !PyTuple_Check(flying) ||
            PyTuple_GET_SIZE(flying) > POINTS) {
            PyErr_SetString(PyExc_ValueError, "malformed steps");
            return NULL;
        }
        nsteps[p] = (int)PyTuple_GET_SIZE(mine);
        for (int i = 0; i < nsteps[p]; i++)
            if (read_step(PyTuple_GET_ITEM(mine, i), &steps[p][i]) < 0) return NULL;
        nflights[p] = (int)PyTuple_GET_SIZE(flying);
        for (int i = 0; i < nflights[p]; i++)
            if (read_step(PyTuple_GET_ITEM(flying, i), &flights[p][i]) < 0) return NULL;
    }
    if (PyErr_Occurred()) return NULL;
    PyObject *kept = PyTuple_Pack(4, rebel_rows, targets, general_steps, flight_steps);
    if (kept == NULL) return NULL;
    Py_XSETREF(tables, kept);
    ready = 1;
    Py_RETURN_NONE;
}

static int read_board(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want, uint32_t *rebels,
                      int *general) {
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "setup() was not called");
        return -1;
    }
    if (nargs != want) {
        PyErr_SetString(PyExc_TypeError, "wrong number of arguments");
        return -1;
    }
    unsigned long r = PyLong_AsUnsignedLong(args[0]);
    long g = PyLong_AsLong(args[1]);
    if (PyErr_Occurred()) return -1;
    if (g < 0 || g >= POINTS || r >> POINTS) {
        PyErr_SetString(PyExc_ValueError, "not a board");
        return -1;
    }
    *rebels = (uint32_t)r;
    *general = (int)g;
    return 0;
}

/* rebel_moves(rebels, general) -> list: by source point, then destination */
static PyObject *rebel_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint32_t rebels;
    int general;
    if (read_board(args, nargs, 2, &rebels, &general) < 0) return NULL;
    uint32_t empty = ~(rebels | (1u << general));
    Py_ssize_t n = 0;
    for (uint32_t r = rebels; r; r &= r - 1)
        n += __builtin_popcount(rebel_targets[__builtin_ctz(r)] & empty);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    Py_ssize_t i = 0;
    for (uint32_t r = rebels; r; r &= r - 1) {
        int src = __builtin_ctz(r);
        for (uint32_t t = rebel_targets[src] & empty; t; t &= t - 1) {
            PyObject *move = rebel_move[src][__builtin_ctz(t)];
            Py_INCREF(move);
            PyList_SET_ITEM(out, i++, move);
        }
    }
    return out;
}

static int add_step(PyObject *out, const Step *step, uint32_t rebels) {
    int found = 0;
    for (int k = 0; k < step->npairs; k++) {
        if ((rebels & step->pair[k]) == step->pair[k]) {
            if (PyList_Append(out, step->capture[k]) < 0) return -1;
            found = 1;
        }
    }
    if (!found && PyList_Append(out, step->plain) < 0) return -1;
    return 0;
}

/* general_moves(rebels, general, flight) -> list: by destination, then capture pair; the step
 * onto s4 with the flight unused is the flight's landings, in order */
static PyObject *general_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint32_t rebels;
    int general;
    if (read_board(args, nargs, 3, &rebels, &general) < 0) return NULL;
    int flight = PyObject_IsTrue(args[2]);
    if (flight < 0) return NULL;
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    for (int i = 0; i < nsteps[general]; i++) {
        const Step *step = &steps[general][i];
        if ((rebels >> step->dst) & 1u) continue;
        if (step->dst == apex && flight) {
            for (int j = 0; j < nflights[general]; j++) {
                const Step *land = &flights[general][j];
                if ((rebels >> land->dst) & 1u) continue;
                if (add_step(out, land, rebels) < 0) goto fail;
            }
        } else if (add_step(out, step, rebels) < 0) {
            goto fail;
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS,
     "setup(REBEL_MOVE, REBEL_TARGETS, GENERAL_STEPS, FLIGHTS, S4): the move tables, once."},
    {"rebel_moves", (PyCFunction)(void (*)(void))rebel_moves, METH_FASTCALL,
     "rebel_moves(rebels, general) -> list of the rebels' moves."},
    {"general_moves", (PyCFunction)(void (*)(void))general_moves, METH_FASTCALL,
     "general_moves(rebels, general, flight) -> list of the general's moves."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cgeneral",
    "The compiled move generation of Le Général et les rebelles (see movegen.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

/* the interface version movegen.py expects (raise it with any change of the functions) */
#define VERSION 1

PyMODINIT_FUNC PyInit__cgeneral(void) {
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "VERSION", VERSION) < 0) Py_CLEAR(m);
    return m;
}

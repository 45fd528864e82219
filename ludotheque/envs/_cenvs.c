/* The optional compiled helpers of the encodings (issue 20, item 5): the few loops that run
 * once per decision over a list of the engine's moves, where Python's cost per item is more
 * than the engine's own work. fast.py holds the same functions in Python (the reference and
 * the fallback, which the tests check against these); built at install like the games' cores
 * (hatch_build.py), ignored with LUDOTHEQUE_PURE_PYTHON=1.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define VERSION 1
#define CHECKER_ACTIONS 150 /* backgammon: (src - 1) * 6 + (die - 1), src 1-25, die 1-6 */

/* group(plays, k) -> (actions ascending, {action: (step, [plays])}): backgammon's plays by
   their k-th single move (src, dst, die, hit), each single move named by its action */
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
    PyObject *lists[CHECKER_ACTIONS] = {NULL};
    PyObject *steps[CHECKER_ACTIONS] = {NULL};
    PyObject *result = NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
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
        long action = (src - 1) * 6 + (die - 1);
        if (src < 1 || src > 25 || die < 1 || die > 6) {
            PyErr_SetString(PyExc_ValueError, "a step's origin is 1-25 and its die 1-6");
            goto done;
        }
        if (lists[action] == NULL) {
            lists[action] = PyList_New(0);
            if (lists[action] == NULL) goto done;
            steps[action] = step;
        }
        if (PyList_Append(lists[action], play) < 0) goto done;
    }
    PyObject *actions = PyList_New(0);
    PyObject *found = PyDict_New();
    if (actions == NULL || found == NULL) {
        Py_XDECREF(actions);
        Py_XDECREF(found);
        goto done;
    }
    for (long a = 0; a < CHECKER_ACTIONS; a++) {
        if (lists[a] == NULL) continue;
        PyObject *key = PyLong_FromLong(a);
        PyObject *value = key ? PyTuple_Pack(2, steps[a], lists[a]) : NULL;
        int failed = value == NULL || PyList_Append(actions, key) < 0 ||
                     PyDict_SetItem(found, key, value) < 0;
        Py_XDECREF(key);
        Py_XDECREF(value);
        if (failed) {
            Py_DECREF(actions);
            Py_DECREF(found);
            goto done;
        }
    }
    result = PyTuple_Pack(2, actions, found);
    Py_DECREF(actions);
    Py_DECREF(found);
done:
    for (int a = 0; a < CHECKER_ACTIONS; a++) Py_XDECREF(lists[a]);
    Py_DECREF(seq);
    return result;
}

/* actions(moves, table) -> [table[move] for move in moves] (KeyError for a move not in it) */
static PyObject *actions(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyDict_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "actions(moves, table: dict)");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(args[0], "moves must be a sequence");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *out = PyList_New(n);
    if (out == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = PyDict_GetItemWithError(args[1], items[i]);
        if (value == NULL) {
            if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, items[i]);
            Py_DECREF(out);
            Py_DECREF(seq);
            return NULL;
        }
        Py_INCREF(value);
        PyList_SET_ITEM(out, i, value);
    }
    Py_DECREF(seq);
    return out;
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

static PyMethodDef methods[] = {
    {"group", (PyCFunction)(void (*)(void))group, METH_FASTCALL,
     "group(plays, k): backgammon's plays by their k-th single move, by action"},
    {"actions", (PyCFunction)(void (*)(void))actions, METH_FASTCALL,
     "actions(moves, table): each move's action"},
    {"mask", (PyCFunction)(void (*)(void))mask, METH_FASTCALL,
     "mask(actions, size): a bytearray with 1 at each action"},
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

"""A stand-in for ``xlwings`` in the Pyodide test (tests/lite/run_bundle.js installs it as the
``xlwings`` package): xlwings Lite's func/arg/ret only register a function and describe its
arguments, so these record what main.py declared and change nothing."""

REGISTERED = {}  # function name -> {"func": options, "args": [(args, options)], "ret": [...]}


def _entry(function):
    return REGISTERED.setdefault(function.__name__, {"func": None, "args": [], "ret": []})


def func(function=None, **options):
    def register(target):
        _entry(target)["func"] = options
        return target

    return register if function is None else register(function)


def arg(*args, **options):
    def describe(target):
        _entry(target)["args"].append([list(args), options])
        return target

    return describe


def ret(*args, **options):
    def describe(target):
        _entry(target)["ret"].append([list(args), options])
        return target

    return describe

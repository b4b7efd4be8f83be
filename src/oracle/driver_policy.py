# Oracle driver, policy: what the sandbox refuses, what counts as tampering.
# Part of the one program driver_source.ts joins (see driver.py).
RECURSION_LIMIT = 1000
RECURSION_CAP = 5000
TAMPER = "ERROR:Tamper"

# Sandbox: refused with PermissionError; the test gets that error.
SANDBOX_EVENTS = frozenset(
    """os.system os.exec os.posix_spawn os.spawn os.fork os.forkpty os.kill os.killpg
    os.remove os.rename os.rmdir os.mkdir os.chmod os.chown os.truncate os.symlink
    os.link os.utime os.putenv os.unsetenv os.chdir os.chflags os.lchflags
    os.setxattr os.removexattr subprocess.Popen pty.spawn _thread.start_new_thread
    resource.setrlimit resource.prlimit mmap.__new__ signal.pthread_kill
    webbrowser.open shutil.rmtree shutil.copyfile shutil.move
    urllib.Request http.client.connect ftplib.connect smtplib.connect poplib.connect
    imaplib.open telnetlib.Telnet.open nntplib.connect glob.glob
    sqlite3.connect""".split()
)
SANDBOX_PREFIXES = ("socket.", "ctypes.", "_ctypes.", "winreg.", "msvcrt.")
SANDBOX_IMPORTS = frozenset(
    """ctypes _ctypes socket _socket subprocess _posixsubprocess multiprocessing
    _multiprocessing pty mmap micropip""".split()
)
# Tampering: only code reaching for the harness does these. Refused, and the
# job's outcome says so (ERROR:Tamper) even if the snippet catches the
# refusal. `execret.tamper` comes from the stand-ins installed for
# signal.signal and the like.
TAMPER_EVENTS = frozenset(
    """gc.get_objects gc.get_referrers gc.get_referents gc.freeze sys._current_frames
    sys._current_exceptions sys.settrace sys.setprofile sys.addaudithook
    sys.monitoring.register_callback sys.remote_exec cpython.remote_debugger_script
    execret.tamper""".split()
)
# The JavaScript bridge; CPython's profiling and test modules (C-level hooks
# into the interpreter); subinterpreters. Any `_test*` module too.
TAMPER_IMPORTS = frozenset(
    """js pyodide pyodide_js _pyodide _pyodide_core _lsprof _remote_debugging
    _xxtestfuzz xxsubtype _xxsubinterpreters _interpreters _interpqueues
    _interpchannels""".split()
)
# Gc events of the harness's own (its survivor check, the bridge test), allowed while it runs.
_HARNESS_GC = frozenset(("gc.get_objects", "gc.get_referents", "gc.freeze"))
# Events with nothing to check: returned from first, they are most calls.
_PASS_EVENTS = frozenset(
    """exec compile object.__getattr__ sys._getframe sys._getframemodulename builtins.id
    marshal.loads marshal.dumps code.__new__ function.__new__ time.sleep
    builtins.input builtins.input/result os.listxattr""".split()
)
_FUNCTION_STATE = frozenset(("__code__", "__defaults__", "__kwdefaults__"))
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
# Module-namespace keys whose changes are no job's doing: the streams
# cleanup() sets for every job, and the registry `warnings` keeps in a
# module it warns for.
VOLATILE_KEYS = frozenset(("stdout", "stderr", "stdin", "__warningregistry__"))


def _is_blocked(name):
    top = name.partition(".")[0]
    return top in SANDBOX_IMPORTS or top in TAMPER_IMPORTS or top.startswith("_test")


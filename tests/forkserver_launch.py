"""What a test runs in place of ``python ARGS``: the same command, started by the forkserver.

    python -S tests/forkserver_launch.py SOCKET -m toolc serve ...   (see forkserver.py)

It sends the forkserver listening at SOCKET its arguments, folder, environment, resource
limits, ignored signals and standard streams, passes every signal it is sent to the worker, and ends
as the worker ended: the same exit code, or killed by the same signal. It stays small and
imports nothing outside the standard library's core (it runs without ``site``). Where a
forked worker could differ from a fresh python, it becomes one instead (``exec``): no
forkserver, a terminal on a standard stream (python would buffer by line), or (the
forkserver answers "X") a ``PYTHON*`` setting it was not started with (a hash seed).
"""

import marshal
import os
import resource
import signal
import socket
import struct
import sys

HEADER = struct.Struct("!I")
LIMITS = ("RLIMIT_AS", "RLIMIT_CORE", "RLIMIT_CPU", "RLIMIT_DATA", "RLIMIT_FSIZE",
          "RLIMIT_NOFILE", "RLIMIT_NPROC", "RLIMIT_STACK")
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1,
             signal.SIGUSR2, signal.SIGCONT, signal.SIGWINCH)


def fresh_python(args):
    os.execv(sys.executable, [sys.executable, *args])


def read_exactly(conn, size):
    data = b""
    while len(data) < size:
        more = conn.recv(size - len(data))
        if not more:
            return None
        data += more
    return data


def main(path, args):
    if any(os.isatty(fd) for fd in (0, 1, 2)):
        fresh_python(args)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError:
        fresh_python(args)
    # What a preexec_fn may have set for this process: its limits, signals it ignores.
    limits = {name: resource.getrlimit(getattr(resource, name)) for name in LIMITS}
    ignored = [int(n) for n in FORWARDED if signal.getsignal(n) == signal.SIG_IGN]
    request = marshal.dumps((list(args), os.getcwd(), dict(os.environ), limits, ignored))
    socket.send_fds(conn, [HEADER.pack(len(request)) + request], [0, 1, 2])
    message = read_exactly(conn, 1 + HEADER.size)
    if message is None:
        sys.exit("forkserver_launch: the forkserver did not start the command")
    if message[:1] == b"X":
        conn.close()
        fresh_python(args)
    worker = HEADER.unpack_from(message, 1)[0]
    # Every signal is passed on, ignored ones too: the worker ignores what a fresh python
    # would, and a program that sets its own handler (toolc serve) still gets them.
    for number in FORWARDED:
        signal.signal(number, lambda signum, frame: os.kill(worker, signum))
    conn.sendall(b"A")  # (the worker waits for this before it runs anything)
    message = read_exactly(conn, 1 + HEADER.size)
    if message is None:
        sys.exit("forkserver_launch: the forkserver's monitor left before the command ended")
    status = HEADER.unpack_from(message, 1)[0]
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])

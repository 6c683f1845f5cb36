"""A GTP engine on pipes, for the tools in this folder. Only the Python standard
library."""

import shlex
import subprocess


class Gtp:
    """A GTP engine on pipes. Its stderr goes to the tool's own, so that what the
    engine warns of (a table it could not load, a network that does not serve the
    board) reaches the user; give engines `--quiet` to keep their per-move lines out,
    or `show_stderr=False` to drop it all."""

    def __init__(self, command, show_stderr=True):
        self.proc = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None if show_stderr else subprocess.DEVNULL,
            text=True,
        )

    def answer(self, line):
        """Sends one command: whether it succeeded, and the answer's text without
        its `=` or `?` (lines joined by newlines)."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            out = self.proc.stdout.readline()
            if out == "":
                raise RuntimeError(f"the engine ended on {line!r}")
            if out.strip() == "" and lines:
                break
            if out.strip() == "" and not lines:
                continue
            lines.append(out.rstrip("\n"))
        text = "\n".join(lines)
        return text.startswith("="), text[1:].strip()

    def ask(self, line):
        """The answer to one command, its lines joined by spaces, or a RuntimeError
        naming the failure."""
        ok, text = self.answer(line)
        if not ok:
            raise RuntimeError(f"{line}: ? {text}")
        return " ".join(part.strip() for part in text.splitlines())

    def close(self):
        """Says `quit` and waits for the engine to end."""
        try:
            self.answer("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.proc.wait(timeout=10)

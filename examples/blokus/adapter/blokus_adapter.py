#!/usr/bin/env python3
"""Runs a course-style Blokus player (class Player(BasePlayer) in a
player.py) as an arbiter bot: it speaks the protocol of blokus.md on
stdin/stdout and calls the player's methods.

    python3 adapter/blokus_adapter.py path/to/player.py

In arbiter's sandbox a bot sees its own folder and, outside it, only the
files its command names, not their folders: copy this folder (adapter/,
with base.py) into the bot's folder and name it from there, as above.

The adapter's own directory comes first on sys.path, so `from base import
BasePlayer` and `import base` find the base.py beside this file; the
player's directory comes next, for the player's own modules. While the
player runs, sys.stdout is stderr, so its prints never mix with the
protocol.

The player is constructed as Player(name, rows, cols, which, stones) as in
the course, once the board, the seat and the stones are known. The adapter
also accepts a constructor whose parameters are named after those (in any
order, with board sizes also called nrows/ncols/ny/nx/height/width/size),
or that takes no arguments (the attributes are then set after it runs).
The name is $PLAYER_NAME, or the player file's name without .py.
"""

import importlib.util
import inspect
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

try:
    import base  # noqa: E402  (after the path is set)
except ImportError as e:
    # In arbiter's sandbox a bot sees its own folder and, outside it, only
    # the files its command names, not the folders they lie in: base.py
    # beside this file is then not there.
    sys.stderr.write(
        "blokus_adapter.py: cannot import base (%s): base.py must lie beside the adapter, in %s,\n"
        "and it is not there. Arbiter's sandbox shows a bot its own folder and, outside it, only\n"
        "the files its command names, not the folders they lie in. Copy the adapter folder\n"
        "(blokus_adapter.py and base.py) into the bot's folder and name it from there:\n"
        "    cp -r %s . && python3 adapter/blokus_adapter.py player.py\n"
        % (e, HERE, HERE))
    sys.exit(1)

PROTOCOL = sys.stdout
sys.stdout = sys.stderr

ALIASES = {
    "name": "name",
    "rows": "rows", "nrows": "rows", "ny": "rows", "height": "rows", "size": "rows", "n": "rows",
    "cols": "cols", "ncols": "cols", "nx": "cols", "width": "cols", "columns": "cols",
    "which": "which", "player": "which", "me": "which", "color": "which",
    "stones": "stones", "pieces": "stones", "shapes": "stones",
}


def load_player_class(path):
    path = os.path.abspath(path)
    sys.path.insert(1, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location("player", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["player"] = module
    spec.loader.exec_module(module)
    return module.Player


def construct(cls, values):
    """Builds the player, fitting the course's constructor and its likely
    variants."""
    try:
        params = [p for p in inspect.signature(cls.__init__).parameters.values()][1:]
    except (TypeError, ValueError):
        params = None
    positional = [p for p in (params or [])
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
    varargs = any(p.kind == p.VAR_POSITIONAL for p in (params or []))
    if params is None or varargs or len(positional) == 5 and not all(p.name.lower() in ALIASES for p in positional):
        player = cls(values["name"], values["rows"], values["cols"], values["which"], values["stones"])
    elif all(p.name.lower() in ALIASES for p in positional) and positional:
        player = cls(**{p.name: values[ALIASES[p.name.lower()]] for p in positional})
    elif not positional:
        player = cls()
    else:
        raise TypeError("cannot construct Player%s: expected Player(name, rows, cols, which, stones)"
                        % inspect.signature(cls.__init__))
    # A constructor that did not call BasePlayer.__init__ still gets the API.
    for attr in ("name", "rows", "cols", "which", "stones"):
        if not hasattr(player, attr):
            setattr(player, attr, values[attr])
    if not hasattr(player, "board"):
        player.board = [[0] * values["cols"] for _ in range(values["rows"])]
    if not hasattr(player, "text"):
        player.text = ""
    return player


def cells(args):
    out = []
    for a in args:
        r, c = a.split(",")
        out.append([int(r), int(c)])
    return out


class Adapter:
    def __init__(self, cls, name):
        self.cls = cls
        self.values = {"name": name, "rows": None, "cols": None,
                       "which": None, "stones": None}
        self.blocked = []
        self.player = None

    def ready(self):
        if self.player is None and None not in self.values.values():
            self.player = construct(self.cls, self.values)
            for r, c in self.blocked:
                self.player.board[r][c] = base.FILLED
        return self.player

    def handle(self, f):
        cmd, args = f[0], f[1:]
        if cmd == "set_board":
            self.values["rows"], self.values["cols"] = int(args[0]), int(args[1])
            self.player = None
        elif cmd == "set_player":
            self.values["which"] = 1 if args[0] == "1" else -1
            self.player = None
        elif cmd == "set_stones":
            stones = []
            for s in args[1:]:
                stones.append([[int(v) for v in xy.split(",")] for xy in s.split(";")])
            self.values["stones"] = stones
            self.player = None
        elif cmd == "set_blocked":
            self.blocked = cells(args[1:])
            if self.player is not None:
                for r, c in self.blocked:
                    self.player.board[r][c] = base.FILLED
        elif cmd == "time_left":
            pass
        elif cmd == "play":
            p = self.ready()
            if p is None:
                raise ValueError("play before set_board, set_player and set_stones")
            which = 1 if args[0] == "1" else -1
            placed = [] if args[1:] == ["pass"] else cells(args[1:])
            if which == p.which:
                # The player marks its own cells in move(); this makes sure.
                for r, c in placed:
                    p.board[r][c] = p.which
            else:
                p.update(placed)
        elif cmd == "gen_move":
            p = self.ready()
            if p is None:
                raise ValueError("gen_move before set_board, set_player and set_stones")
            move = p.move()
            if not move:
                return "pass"
            return " ".join("%d,%d" % (int(c[0]), int(c[1])) for c in move)
        elif cmd != "quit":
            raise ValueError("unknown command " + cmd)
        if cmd in ("set_board", "set_player", "set_stones"):
            self.ready()
        return ""


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: blokus_adapter.py player.py\n")
        return 2
    name = os.environ.get("PLAYER_NAME") or os.path.splitext(os.path.basename(sys.argv[1]))[0]
    adapter = Adapter(load_player_class(sys.argv[1]), name)
    for line in sys.stdin:
        f = line.split()
        if not f:
            continue
        try:
            answer = adapter.handle(f)
            PROTOCOL.write(("= " + answer if answer else "=") + "\n\n")
        except Exception as e:  # a player's bug is its fault, answered with ?
            traceback.print_exc()
            PROTOCOL.write("? %s: %s\n\n" % (type(e).__name__, str(e).replace("\n", " ")))
        PROTOCOL.flush()
        if f[0] == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A course-style Blokus player: it uses only the BasePlayer API of the
course (self.board, self.which, self.stones, self.rows, self.cols, update)
and knows nothing of arbiter. arbiter runs it with

    python3 adapter/blokus_adapter.py players/course_player.py

Strategy, as the course's hints suggest: expand the state (every legal
placement of every unused stone, found from the corners of its own
stones), then place the biggest stone, preferring the placement nearest
the opponent's start corner.
"""

from base import BasePlayer


def normalise(cells):
    mx = min(c[0] for c in cells)
    my = min(c[1] for c in cells)
    return sorted([c[0] - mx, c[1] - my] for c in cells)


def rotations(stone):
    """The distinct rotations of a stone (no mirroring)."""
    out = []
    cur = normalise(stone)
    for _ in range(4):
        if cur not in out:
            out.append(cur)
        cur = normalise([[-y, x] for x, y in cur])
    return out


class Player(BasePlayer):
    def __init__(self, name, rows, cols, which, stones):
        super().__init__(name, rows, cols, which, stones)
        self.text = "course example: biggest stone first"
        self.rots = [rotations(s) for s in self.stones]
        self.isUsed = [False] * len(self.stones)
        self.start = [self.rows - 1, 0] if self.which == 1 else [0, self.cols - 1]
        self.target = [0, self.cols - 1] if self.which == 1 else [self.rows - 1, 0]

    def inBoard(self, r, c):
        return 0 <= r < self.rows and 0 <= c < self.cols

    def mine(self, r, c):
        return self.inBoard(r, c) and self.board[r][c] == self.which

    def corners(self):
        """Free cells touching my stones at a corner and none along an edge
        (the start cell before my first stone)."""
        if not any(self.which in row for row in self.board):
            r, c = self.start
            return [self.start] if self.board[r][c] == 0 else []
        out = []
        for r in range(self.rows):
            for c in range(self.cols):
                if self.board[r][c] != 0 or not self.okEdges(r, c):
                    continue
                if any(self.mine(r + dr, c + dc) for dr in (-1, 1) for dc in (-1, 1)):
                    out.append([r, c])
        return out

    def okEdges(self, r, c):
        return not any(self.mine(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))

    def fits(self, cells):
        for r, c in cells:
            if not self.inBoard(r, c) or self.board[r][c] != 0 or not self.okEdges(r, c):
                return False
        return True

    def placements(self):
        """Every legal placement as (stone index, cells)."""
        out = []
        seen = set()
        corners = self.corners()
        for i, rots in enumerate(self.rots):
            if self.isUsed[i]:
                continue
            for rot in rots:
                for cr, cc in corners:
                    for ax, ay in rot:
                        cells = [[cr - ay + y, cc - ax + x] for x, y in rot]
                        key = (i, tuple(map(tuple, sorted(cells))))
                        if key in seen:
                            continue
                        seen.add(key)
                        if self.fits(cells):
                            out.append((i, cells))
        return out

    def move(self):
        moves = self.placements()
        if not moves:
            return []

        def value(m):
            i, cells = m
            dist = sum(abs(r - self.target[0]) + abs(c - self.target[1]) for r, c in cells)
            return (len(cells), -dist)

        i, cells = max(moves, key=value)
        self.isUsed[i] = True
        for r, c in cells:
            self.board[r][c] = self.which
        return cells

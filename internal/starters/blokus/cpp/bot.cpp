// A Blokus starter bot: places the first stone that fits, or passes.
// The referee sends one command per line; every command gets an answer
// "= text" (or "? error") followed by an empty line. Cells are "row,col";
// a stone in set_stones is "x,y;x,y;..." (x the column). See README.md.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

typedef std::vector<std::pair<int, int>> Cells;  // (x, y) or (row, col)

static int rows = 0, cols = 0, me = 1;
static std::vector<int> board;  // 0 free, 1 or 2 a player, -1 blocked
static std::vector<Cells> stones;
static std::vector<bool> used;

static int at(int r, int c) { return r < 0 || c < 0 || r >= rows || c >= cols ? 0 : board[r * cols + c]; }

static bool legal(const Cells &cells, bool first) {
    int sr = me == 1 ? rows - 1 : 0, sc = me == 1 ? 0 : cols - 1;
    bool corner = false, start = false;
    for (auto &rc : cells) {
        int r = rc.first, c = rc.second;
        if (r < 0 || c < 0 || r >= rows || c >= cols || board[r * cols + c] != 0) return false;
        if (at(r + 1, c) == me || at(r - 1, c) == me || at(r, c + 1) == me || at(r, c - 1) == me) return false;
        corner = corner || at(r + 1, c + 1) == me || at(r + 1, c - 1) == me || at(r - 1, c + 1) == me || at(r - 1, c - 1) == me;
        start = start || (r == sr && c == sc);
    }
    return first ? start : corner;
}

static std::string genMove() {
    bool first = std::find(board.begin(), board.end(), me) == board.end();
    for (size_t i = 0; i < stones.size(); i++) {
        if (used[i]) continue;
        Cells rot = stones[i];
        for (int k = 0; k < 4; k++) {
            for (auto &p : rot) p = std::make_pair(-p.second, p.first);  // a quarter turn
            int mx = 1 << 30, my = 1 << 30;
            for (auto &p : rot) mx = std::min(mx, p.first), my = std::min(my, p.second);
            for (auto &p : rot) p.first -= mx, p.second -= my;
            for (int r0 = 0; r0 < rows; r0++)
                for (int c0 = 0; c0 < cols; c0++) {
                    Cells cells;
                    for (auto &p : rot) cells.push_back(std::make_pair(r0 + p.second, c0 + p.first));
                    if (!legal(cells, first)) continue;
                    used[i] = true;
                    std::string out;
                    for (auto &rc : cells) out += (out.empty() ? "" : " ") + std::to_string(rc.first) + "," + std::to_string(rc.second);
                    return out;
                }
        }
    }
    return "pass";
}

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string cmd, answer;
        if (!(in >> cmd)) continue;
        bool ok = true;
        if (cmd == "set_board") {
            in >> rows >> cols;
            board.assign(rows * cols, 0);
        } else if (cmd == "set_player") {
            in >> me;
        } else if (cmd == "set_stones") {
            int k;
            in >> k;
            stones.clear();
            std::string s;
            while (in >> s) {
                Cells cells;
                std::istringstream ps(s);
                std::string pt;
                while (std::getline(ps, pt, ';')) {
                    int x, y;
                    std::sscanf(pt.c_str(), "%d,%d", &x, &y);
                    cells.push_back(std::make_pair(x, y));
                }
                stones.push_back(cells);
            }
            used.assign(stones.size(), false);
        } else if (cmd == "set_blocked" || cmd == "play") {
            int who;
            in >> who;
            std::string cell;
            while (in >> cell) {
                int r, c;
                if (cell != "pass" && std::sscanf(cell.c_str(), "%d,%d", &r, &c) == 2 && r >= 0 && c >= 0 && r < rows && c < cols)
                    board[r * cols + c] = cmd == "play" ? who : -1;
            }
        } else if (cmd == "gen_move") {
            answer = genMove();
        } else if (cmd != "time_left" && cmd != "quit") {
            ok = false;
            answer = "unknown command " + cmd;
        }
        std::cout << (ok ? "=" : "?") << (answer.empty() ? "" : " " + answer) << "\n\n" << std::flush;
        if (cmd == "quit") break;
    }
}

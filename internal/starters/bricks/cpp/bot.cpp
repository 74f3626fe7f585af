// A Bricks starter bot: places the first domino that fits, in reading order.
// One message per line: the board ("7_2x3_4x5": size, then filled cells
// column x row), answered OK; then START or the opponent's move, answered
// with a move "AxB_CxD"; STOP ends the game. See README.md.
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

static int n = 0;
static std::vector<bool> filled;

static bool isFree(int x, int y) { return x >= 0 && y >= 0 && x < n && y < n && !filled[y * n + x]; }

static void markCell(const std::string &cell) {
    int x, y;
    if (std::sscanf(cell.c_str(), "%dx%d", &x, &y) == 2 && x >= 0 && y >= 0 && x < n && y < n) filled[y * n + x] = true;
}

static void markMove(const std::string &move) {
    std::istringstream in(move);
    std::string cell;
    while (std::getline(in, cell, '_')) markCell(cell);
}

static std::string choose() {
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            if (!isFree(x, y)) continue;
            if (isFree(x + 1, y)) return std::to_string(x) + "x" + std::to_string(y) + "_" + std::to_string(x + 1) + "x" + std::to_string(y);
            if (isFree(x, y + 1)) return std::to_string(x) + "x" + std::to_string(y) + "_" + std::to_string(x) + "x" + std::to_string(y + 1);
        }
    return "0x0_0x1";  // no domino fits; the referee never asks then
}

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (line.empty()) continue;
        if (line == "STOP") break;
        std::string first = line.substr(0, line.find('_'));
        std::string answer;
        if (first.find('x') == std::string::npos && line != "START") {  // the board
            n = std::stoi(first);
            filled.assign(n * n, false);
            size_t at = line.find('_');
            if (at != std::string::npos) markMove(line.substr(at + 1));
            answer = "OK";
        } else {
            if (line != "START") markMove(line);
            answer = choose();
            markMove(answer);
        }
        std::cout << answer << std::endl;
    }
}

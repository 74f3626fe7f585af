// An Auction starter strategy: bids its capital shared over the cells left.
// Run once per round as: bot <game> <letter>, in the folder that holds
// <game>/. It reads <game>/state, prints one whole number from 0 to its
// capital, and exits. See README.md.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    std::ifstream state(std::string(argv[1]) + "/state");
    int players, cols, rows;
    state >> players >> cols >> rows;
    std::string line;
    std::getline(state, line);
    for (int r = 0; r < rows; r++) std::getline(state, line);
    long capital = 0;
    for (int p = 0; p < players; p++) {
        std::string who;
        long money;
        state >> who >> money;
        if (who == argv[2]) capital = money;
    }
    std::getline(state, line);
    std::getline(state, line);  // the queue
    long cells = std::max<long>(1, std::count(line.begin(), line.end(), ';'));
    std::cout << capital / cells << std::endl;
}

// A Euchre starter bot: passes, never goes alone, plays its first legal card.
// Run once per decision, with the decision on standard input: hand, points,
// tricks, phase, then the phase's lines. It prints one answer line and
// exits. See README.md.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

static std::vector<std::string> split(const std::string &s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    std::string x;
    while (std::getline(in, x, ','))
        if (!x.empty() && x != "p") out.push_back(x);
    return out;
}

static char sister(char s) { return s == 'c' ? 's' : s == 's' ? 'c' : s == 'h' ? 'd' : 'h'; }

// The suit a card follows: the left bower (the other jack of trump's
// colour) is a trump.
static char suitOf(const std::string &card, char trump) {
    return card[0] == 'j' && card[1] == sister(trump) ? trump : card[1];
}

int main() {
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(line);
    }
    lines.resize(8);
    std::vector<std::string> hand = split(lines[0]);
    const std::string &phase = lines[3];
    if (phase == "ordering" || phase == "naming") {
        std::cout << "p\n";
    } else if (phase == "discard") {
        std::cout << hand[0] << "\n";
    } else if (phase == "alone") {
        std::cout << "n\n";
    } else if (phase == "turn") {
        char trump = lines[4][0];
        std::vector<std::string> played = split(lines[5]);
        std::string answer = hand[0];
        if (!played.empty()) {
            char led = suitOf(played[0], trump);
            for (auto &c : hand)
                if (suitOf(c, trump) == led) { answer = c; break; }
        }
        std::cout << answer << "\n";
    }
    // phase "trick": nothing to answer
}

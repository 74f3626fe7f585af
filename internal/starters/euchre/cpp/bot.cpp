// A Euchre starter bot: orders up or names a suit when it holds three
// trumps (and, as dealer, orders when the three others passed, so that a
// hand is played rather than thrown in), never goes alone, discards a card
// that is not trump, and plays its first legal card.
// Run once per decision, with the decision on standard input: hand, points,
// tricks, phase, then the phase's lines. It prints one answer line and
// exits. See README.md.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

// split reads a comma separated line; "p" (one who sits out) is left out
// when cards is set.
static std::vector<std::string> split(const std::string &s, bool cards = true) {
    std::vector<std::string> out;
    std::istringstream in(s);
    std::string x;
    while (std::getline(in, x, ','))
        if (!x.empty() && !(cards && x == "p")) out.push_back(x);
    return out;
}

static char sister(char s) { return s == 'c' ? 's' : s == 's' ? 'c' : s == 'h' ? 'd' : 'h'; }

// The suit a card follows: the left bower (the other jack of trump's
// colour) is a trump.
static char suitOf(const std::string &card, char trump) {
    return card[0] == 'j' && card[1] == sister(trump) ? trump : card[1];
}

static int trumps(const std::vector<std::string> &hand, char trump) {
    int n = 0;
    for (auto &c : hand)
        if (suitOf(c, trump) == trump) n++;
    return n;
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
    if (phase == "ordering") {
        char trump = lines[4][1];
        // The dealer speaks last: with three passes before it, it orders.
        bool dealer = split(lines[5], false).size() == 3;
        std::cout << (trumps(hand, trump) >= 3 || dealer ? "o" : "p") << "\n";
    } else if (phase == "naming") {
        // A suit it holds three of cannot be the turned-down one: it
        // would have ordered that up.
        char best = 'c';
        for (char s : std::string("cshd"))
            if (trumps(hand, s) > trumps(hand, best)) best = s;
        if (trumps(hand, best) >= 3)
            std::cout << best << "\n";
        else
            std::cout << "p\n";
    } else if (phase == "discard") {
        char trump = lines[4][1];
        std::string answer = hand[0];
        for (auto &c : hand)
            if (suitOf(c, trump) != trump) { answer = c; break; }
        std::cout << answer << "\n";
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

// A Planowanie starter bot: declares 0 and plays the first card it may.
// The referee sends one command per line; every command gets an answer
// "= text" (or "? error") followed by an empty line. See README.md.
#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main() {
    int players = 4, me = 0, inTrick = 0;
    char led = 0;
    std::vector<std::string> hand;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string cmd;
        if (!(in >> cmd)) continue;  // empty lines must be ignored
        std::string answer;
        bool ok = true;
        if (cmd == "set_players") {
            in >> players >> me;
        } else if (cmd == "set_cards") {
            int n;
            in >> n;
            hand.assign(n, "");
            for (auto &c : hand) in >> c;
            inTrick = 0;
            led = 0;
        } else if (cmd == "play") {
            int seat;
            std::string card;
            in >> seat >> card;
            if (seat == me) {
                auto it = std::find(hand.begin(), hand.end(), card);
                if (it != hand.end()) hand.erase(it);
            }
            if (inTrick == 0) led = card[1];
            inTrick = (inTrick + 1) % players;
        } else if (cmd == "gen_declare") {
            answer = "0";
        } else if (cmd == "gen_move") {
            answer = hand[0];
            if (inTrick > 0)
                for (auto &c : hand)
                    if (c[1] == led) { answer = c; break; }
        } else if (cmd != "set_deck" && cmd != "set_game" && cmd != "declare" && cmd != "time_left" && cmd != "quit") {
            ok = false;
            answer = "unknown command " + cmd;
        }
        std::cout << (ok ? "=" : "?") << (answer.empty() ? "" : " " + answer) << "\n\n" << std::flush;
        if (cmd == "quit") break;
    }
}

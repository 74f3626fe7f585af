// A Euchre starter bot: orders up or names a suit when it holds three
// trumps (and, as dealer, orders when the three others passed, so that a
// hand is played rather than thrown in), never goes alone, discards a card
// that is not trump, and plays its first legal card.
// Run once per decision, with the decision on standard input: hand, points,
// tricks, phase, then the phase's lines. It prints one answer line and
// exits. See README.md.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class Bot {
    // A comma separated line; "p" (one who sits out) is left out when
    // cards is set.
    static List<String> split(String s, boolean cards) {
        List<String> out = new ArrayList<>();
        for (String c : s.trim().split(","))
            if (!c.isEmpty() && !(cards && c.equals("p"))) out.add(c);
        return out;
    }

    static char sister(char s) { return s == 'c' ? 's' : s == 's' ? 'c' : s == 'h' ? 'd' : 'h'; }

    // The suit a card follows: the left bower (the other jack of trump's
    // colour) is a trump.
    static char suitOf(String card, char trump) {
        return card.charAt(0) == 'j' && card.charAt(1) == sister(trump) ? trump : card.charAt(1);
    }

    static int trumps(List<String> hand, char trump) {
        int n = 0;
        for (String c : hand)
            if (suitOf(c, trump) == trump) n++;
        return n;
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        List<String> lines = new ArrayList<>();
        String line;
        while ((line = in.readLine()) != null) lines.add(line.trim());
        while (lines.size() < 8) lines.add("");
        List<String> hand = split(lines.get(0), true);
        String phase = lines.get(3);
        switch (phase) {
            case "ordering": {
                char trump = lines.get(4).charAt(1);
                // The dealer speaks last: with three passes before it, it orders.
                boolean dealer = split(lines.get(5), false).size() == 3;
                System.out.println(trumps(hand, trump) >= 3 || dealer ? "o" : "p");
                break;
            }
            case "naming": {
                // A suit it holds three of cannot be the turned-down one:
                // it would have ordered that up.
                char best = 'c';
                for (char s : "cshd".toCharArray())
                    if (trumps(hand, s) > trumps(hand, best)) best = s;
                System.out.println(trumps(hand, best) >= 3 ? String.valueOf(best) : "p");
                break;
            }
            case "discard": {
                char trump = lines.get(4).charAt(1);
                String answer = hand.get(0);
                for (String c : hand)
                    if (suitOf(c, trump) != trump) { answer = c; break; }
                System.out.println(answer);
                break;
            }
            case "alone": System.out.println("n"); break;
            case "turn": {
                char trump = lines.get(4).charAt(0);
                List<String> played = split(lines.get(5), true);
                String answer = hand.get(0);
                if (!played.isEmpty()) {
                    char led = suitOf(played.get(0), trump);
                    for (String c : hand)
                        if (suitOf(c, trump) == led) { answer = c; break; }
                }
                System.out.println(answer);
                break;
            }
            default: break; // phase "trick": nothing to answer
        }
    }
}

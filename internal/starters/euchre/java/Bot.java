// A Euchre starter bot: passes, never goes alone, plays its first legal card.
// Run once per decision, with the decision on standard input: hand, points,
// tricks, phase, then the phase's lines. It prints one answer line and
// exits. See README.md.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class Bot {
    static List<String> cards(String s) {
        List<String> out = new ArrayList<>();
        for (String c : s.trim().split(","))
            if (!c.isEmpty() && !c.equals("p")) out.add(c);
        return out;
    }

    static char sister(char s) { return s == 'c' ? 's' : s == 's' ? 'c' : s == 'h' ? 'd' : 'h'; }

    // The suit a card follows: the left bower (the other jack of trump's
    // colour) is a trump.
    static char suitOf(String card, char trump) {
        return card.charAt(0) == 'j' && card.charAt(1) == sister(trump) ? trump : card.charAt(1);
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        List<String> lines = new ArrayList<>();
        String line;
        while ((line = in.readLine()) != null) lines.add(line.trim());
        while (lines.size() < 8) lines.add("");
        List<String> hand = cards(lines.get(0));
        String phase = lines.get(3);
        switch (phase) {
            case "ordering": case "naming": System.out.println("p"); break;
            case "discard": System.out.println(hand.get(0)); break;
            case "alone": System.out.println("n"); break;
            case "turn": {
                char trump = lines.get(4).charAt(0);
                List<String> played = cards(lines.get(5));
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

// A Planowanie starter bot: declares 0 and plays the first card it may.
// The referee sends one command per line; every command gets an answer
// "= text" (or "? error") followed by an empty line. See README.md.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class Bot {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int players = 4, me = 0, inTrick = 0;
        char led = 0;
        List<String> hand = new ArrayList<>();
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.trim().split("\\s+");
            if (f[0].isEmpty()) continue; // empty lines must be ignored
            String cmd = f[0], answer = "";
            boolean ok = true;
            switch (cmd) {
                case "set_players": players = Integer.parseInt(f[1]); me = Integer.parseInt(f[2]); break;
                case "set_cards":
                    hand.clear();
                    for (int i = 2; i < f.length; i++) hand.add(f[i]);
                    inTrick = 0;
                    led = 0;
                    break;
                case "play":
                    if (Integer.parseInt(f[1]) == me) hand.remove(f[2]);
                    if (inTrick == 0) led = f[2].charAt(1);
                    inTrick = (inTrick + 1) % players;
                    break;
                case "gen_declare": answer = "0"; break;
                case "gen_move":
                    answer = hand.get(0);
                    if (inTrick > 0)
                        for (String c : hand)
                            if (c.charAt(1) == led) { answer = c; break; }
                    break;
                case "set_deck": case "set_game": case "declare": case "time_left": case "quit": break;
                default: ok = false; answer = "unknown command " + cmd;
            }
            System.out.print((ok ? "=" : "?") + (answer.isEmpty() ? "" : " " + answer) + "\n\n");
            System.out.flush();
            if (cmd.equals("quit")) break;
        }
    }
}

// An Auction starter strategy: bids its capital shared over the cells left.
// Run once per round as: java Bot <game> <letter>, in the folder that
// holds <game>/. It reads <game>/state, prints one whole number from 0 to
// its capital, and exits. See README.md.
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

public class Bot {
    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Paths.get(args[0], "state"));
        String[] head = lines.get(0).trim().split("\\s+");
        int players = Integer.parseInt(head[0]), rows = Integer.parseInt(head[2]);
        long capital = 0;
        for (int p = 0; p < players; p++) {
            String[] f = lines.get(1 + rows + p).trim().split("\\s+");
            if (f[0].equals(args[1])) capital = Long.parseLong(f[1]);
        }
        String queue = lines.get(1 + rows + players);
        long cells = Math.max(1, queue.chars().filter(c -> c == ';').count());
        System.out.println(capital / cells);
    }
}

// A Bricks starter bot: places the first domino that fits, in reading order.
// One message per line: the board ("7_2x3_4x5": size, then filled cells
// column x row), answered OK; then START or the opponent's move, answered
// with a move "AxB_CxD"; STOP ends the game. See README.md.
import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Bot {
    static int n;
    static boolean[] filled;

    static boolean free(int x, int y) { return x >= 0 && y >= 0 && x < n && y < n && !filled[y * n + x]; }

    static void mark(String cells) {
        for (String cell : cells.split("_")) {
            String[] xy = cell.split("x");
            int x = Integer.parseInt(xy[0]), y = Integer.parseInt(xy[1]);
            if (x >= 0 && y >= 0 && x < n && y < n) filled[y * n + x] = true;
        }
    }

    static String choose() {
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                if (!free(x, y)) continue;
                if (free(x + 1, y)) return x + "x" + y + "_" + (x + 1) + "x" + y;
                if (free(x, y + 1)) return x + "x" + y + "_" + x + "x" + (y + 1);
            }
        return "0x0_0x1"; // no domino fits; the referee never asks then
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.isEmpty()) continue;
            if (line.equals("STOP")) break;
            String answer;
            int at = line.indexOf('_');
            String first = at < 0 ? line : line.substring(0, at);
            if (!first.contains("x") && !line.equals("START")) { // the board
                n = Integer.parseInt(first);
                filled = new boolean[n * n];
                if (at >= 0) mark(line.substring(at + 1));
                answer = "OK";
            } else {
                if (!line.equals("START")) mark(line);
                answer = choose();
                mark(answer);
            }
            System.out.println(answer);
            System.out.flush();
        }
    }
}

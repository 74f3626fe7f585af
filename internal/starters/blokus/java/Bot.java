// A Blokus starter bot: places the first stone that fits, or passes.
// The referee sends one command per line; every command gets an answer
// "= text" (or "? error") followed by an empty line. Cells are "row,col";
// a stone in set_stones is "x,y;x,y;..." (x the column). See README.md.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class Bot {
    static int rows, cols, me = 1;
    static int[] board = new int[0]; // 0 free, 1 or 2 a player, -1 blocked
    static List<int[][]> stones = new ArrayList<>(); // per stone, its (x, y) cells
    static boolean[] used = new boolean[0];

    static int at(int r, int c) { return r < 0 || c < 0 || r >= rows || c >= cols ? 0 : board[r * cols + c]; }

    static boolean legal(int[][] cells, boolean first) {
        int sr = me == 1 ? rows - 1 : 0, sc = me == 1 ? 0 : cols - 1;
        boolean corner = false, start = false;
        for (int[] rc : cells) {
            int r = rc[0], c = rc[1];
            if (r < 0 || c < 0 || r >= rows || c >= cols || board[r * cols + c] != 0) return false;
            if (at(r + 1, c) == me || at(r - 1, c) == me || at(r, c + 1) == me || at(r, c - 1) == me) return false;
            corner |= at(r + 1, c + 1) == me || at(r + 1, c - 1) == me || at(r - 1, c + 1) == me || at(r - 1, c - 1) == me;
            start |= r == sr && c == sc;
        }
        return first ? start : corner;
    }

    static String genMove() {
        boolean first = true;
        for (int v : board) if (v == me) first = false;
        for (int i = 0; i < stones.size(); i++) {
            if (used[i]) continue;
            int[][] rot = stones.get(i);
            for (int k = 0; k < 4; k++) {
                int mx = Integer.MAX_VALUE, my = Integer.MAX_VALUE;
                int[][] next = new int[rot.length][];
                for (int j = 0; j < rot.length; j++) next[j] = new int[] {-rot[j][1], rot[j][0]}; // a quarter turn
                for (int[] p : next) { mx = Math.min(mx, p[0]); my = Math.min(my, p[1]); }
                for (int[] p : next) { p[0] -= mx; p[1] -= my; }
                rot = next;
                for (int r0 = 0; r0 < rows; r0++)
                    for (int c0 = 0; c0 < cols; c0++) {
                        int[][] cells = new int[rot.length][];
                        for (int j = 0; j < rot.length; j++) cells[j] = new int[] {r0 + rot[j][1], c0 + rot[j][0]};
                        if (!legal(cells, first)) continue;
                        used[i] = true;
                        StringBuilder out = new StringBuilder();
                        for (int[] rc : cells) out.append(out.length() == 0 ? "" : " ").append(rc[0]).append(',').append(rc[1]);
                        return out.toString();
                    }
            }
        }
        return "pass";
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.trim().split("\\s+");
            if (f[0].isEmpty()) continue;
            String cmd = f[0], answer = "";
            boolean ok = true;
            switch (cmd) {
                case "set_board":
                    rows = Integer.parseInt(f[1]);
                    cols = Integer.parseInt(f[2]);
                    board = new int[rows * cols];
                    break;
                case "set_player": me = Integer.parseInt(f[1]); break;
                case "set_stones":
                    stones.clear();
                    for (int i = 2; i < f.length; i++) {
                        String[] pts = f[i].split(";");
                        int[][] cells = new int[pts.length][];
                        for (int j = 0; j < pts.length; j++) {
                            String[] xy = pts[j].split(",");
                            cells[j] = new int[] {Integer.parseInt(xy[0]), Integer.parseInt(xy[1])};
                        }
                        stones.add(cells);
                    }
                    used = new boolean[stones.size()];
                    break;
                case "set_blocked": case "play":
                    for (int i = 2; i < f.length; i++) {
                        if (f[i].equals("pass")) continue;
                        String[] rc = f[i].split(",");
                        int r = Integer.parseInt(rc[0]), c = Integer.parseInt(rc[1]);
                        if (r >= 0 && c >= 0 && r < rows && c < cols) board[r * cols + c] = cmd.equals("play") ? Integer.parseInt(f[1]) : -1;
                    }
                    break;
                case "gen_move": answer = genMove(); break;
                case "time_left": case "quit": break;
                default: ok = false; answer = "unknown command " + cmd;
            }
            System.out.print((ok ? "=" : "?") + (answer.isEmpty() ? "" : " " + answer) + "\n\n");
            System.out.flush();
            if (cmd.equals("quit")) break;
        }
    }
}

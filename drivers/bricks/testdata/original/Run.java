import management.Tournament;
import java.awt.Point;
import java.io.File;
import java.util.ArrayList;

// Runs the original's tournament as its TournamentTest.start does.
public class Run {
    public static void main(String[] args) throws Exception {
        File players = new File(args[0]);
        File results = new File(args[1]);
        for (File f : players.listFiles()) System.err.println("listFiles: " + f.getPath());
        results.mkdir();
        Tournament tournament = new Tournament(players, results);
        tournament.setWatchConstants(1.5, 0);
        tournament.start(3, new ArrayList<Point>());
        while (!tournament.isFinished()) {
            tournament.nextDuel();
        }
    }
}

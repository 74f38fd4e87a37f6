package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jboss.logging.Logger;

/**
 * Deletes what stopped children left in the state directory: a broker's folder (its data, configuration and log),
 * s3proxy's (its objects and log) and dynalite's log, each named by the port its child listened on. Every start picks
 * fresh ports, so every start left one of each behind (about 450 files), and nothing removed them: a checkout that had
 * run the tests and dev mode for a day held 46,000 files there, which every walk over target/ paid for. Kept: what
 * changed within {@code keep} (a failed run's logs, for a look), and whatever's port still answers (a child of another
 * JVM of this checkout, running or restarting).
 */
public final class StaleState {

    private static final Logger LOG = Logger.getLogger(StaleState.class);

    /** A child's state, its port in group 2 (a folder) or 3 (dynalite's log). */
    private static final Pattern CHILD_STATE = Pattern.compile("(kafka|s3proxy)-(\\d+)|dynalite-(\\d+)\\.log");

    private StaleState() {
    }

    /** Deletes the stale children's state in {@code stateDir}; answers how many entries went. */
    public static int prune(Path stateDir, Duration keep, Instant now) {
        if (!Files.isDirectory(stateDir)) {
            return 0;
        }
        int deleted = 0;
        try (Stream<Path> entries = Files.list(stateDir)) {
            for (Path entry : entries.toList()) {
                Matcher name = CHILD_STATE.matcher(entry.getFileName().toString());
                if (name.matches() && lastChanged(entry).isBefore(now.minus(keep))
                        && !FreePorts.accepts(Integer.parseInt(name.group(2) != null ? name.group(2) : name.group(3)))) {
                    deleteTree(entry);
                    deleted++;
                }
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.debugf(e, "could not clear stale state in %s", stateDir);
        }
        return deleted;
    }

    /** The latest change of the entry or of what it holds directly (a broker's log, its data folder). */
    private static Instant lastChanged(Path entry) throws IOException {
        Instant latest = Files.getLastModifiedTime(entry).toInstant();
        if (Files.isDirectory(entry)) {
            try (Stream<Path> children = Files.list(entry)) {
                for (Path child : children.toList()) {
                    FileTime changed = Files.getLastModifiedTime(child);
                    if (changed.toInstant().isAfter(latest)) {
                        latest = changed.toInstant();
                    }
                }
            }
        }
        return latest;
    }

    /** Deletes a folder and all it holds; nothing when it is not there. */
    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(root)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();
        }
        for (Path path : paths) {
            Files.deleteIfExists(path);
        }
    }
}

package dev.cabinet.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The figures of one run, side by side with their raw limits, written as a Markdown table. */
final class Report {

    /** One path: Cabinet's figure, the raw limit's, their ratio and the target the ratio must meet. */
    record Row(String path, String measure, double cabinet, double raw, String unit, String target, boolean met) {
    }

    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<Load.Result> phases = new ArrayList<>();

    /** A throughput-like figure, where more is better: the ratio is cabinet / raw. */
    void ratio(String path, String measure, double cabinet, double raw, String unit, double atLeast) {
        double ratio = cabinet / raw;
        add(new Row(path, measure, cabinet, raw, unit, String.format("≥ %.1f× raw (%.2f×)", atLeast, ratio),
                ratio >= atLeast));
    }

    /** A latency compared with a bound of its own. */
    void bound(String path, String measure, double cabinet, double raw, String unit, String target, boolean met) {
        add(new Row(path, measure, cabinet, raw, unit, target, met));
    }

    /** A measured run, listed with its maximum latency in the table of every phase. */
    synchronized void phase(Load.Result result) {
        phases.add(result);
    }

    synchronized List<Load.Result> phases() {
        return List.copyOf(phases);
    }

    void note(String note) {
        notes.add(note);
        System.out.println("[bench] " + note);
    }

    private void add(Row row) {
        rows.add(row);
        System.out.printf("[bench] %s — %s: Cabinet %.2f %s, raw %s, target %s: %s%n", row.path(), row.measure(),
                row.cabinet(), row.unit(), Double.isNaN(row.raw()) ? "—" : String.format("%.2f", row.raw()),
                row.target(), row.met() ? "met" : "NOT met");
    }

    String markdown() {
        StringBuilder out = new StringBuilder("| path | measure | Cabinet | raw limit | target | met |\n|---|---|---|---|---|---|\n");
        for (Row row : rows) {
            out.append(String.format("| %s | %s | %s %s | %s | %s | %s |%n", row.path(), row.measure(),
                    format(row.cabinet()), row.unit(), Double.isNaN(row.raw()) ? "—" : format(row.raw()) + " " + row.unit(),
                    row.target(), row.met() ? "yes" : "**no**"));
        }
        out.append('\n');
        for (String note : notes) {
            out.append("- ").append(note).append('\n');
        }
        out.append("\nEvery measured phase (closed loop: callers back to back; \"@ n/s\": open loop at that rate, latency "
                + "from the intended start):\n\n| phase | generator | ok | failed | per second | p50 | p99 | max |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (Load.Result phase : phases) {
            out.append(String.format("| %s | %s | %d | %d | %s /s | %.2f ms | %.2f ms | %s ms%s |%n", phase.name(),
                    phase.generator(), phase.completed(), phase.failed(), format(phase.perSecond()), phase.p50Millis(),
                    phase.p99Millis(), format(phase.maxMillis()), phase.stalled() ? " (> 10× p99)" : ""));
        }
        return out.toString();
    }

    void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, markdown());
        System.out.println("[bench] written to " + file.toAbsolutePath());
    }

    private static String format(double value) {
        return value >= 100 ? String.format("%,.0f", value) : String.format("%.2f", value);
    }
}

package dev.cabinet.benchmark;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/** Sums of Prometheus samples from an application's /q/metrics page. */
record Meters(String page) {

    /** The sum of every sample of {@code name} whose labels pass {@code labels}. */
    double sum(String name, Predicate<String> labels) {
        double total = 0;
        for (String line : page.lines().toList()) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                String labelText = line.startsWith(name + "{") ? line.substring(name.length(), line.indexOf('}') + 1) : "";
                if (labels.test(labelText)) {
                    total += value(line, name.length() + labelText.length());
                }
            }
        }
        return total;
    }

    double sum(String name) {
        return sum(name, labels -> true);
    }

    /** The sample's value: the first token after its name and labels (an exemplar may follow it). */
    private static double value(String line, int afterLabels) {
        return Double.parseDouble(line.substring(afterLabels).trim().split(" ")[0]);
    }

    /** A histogram's cumulative bucket counts by upper bound ({@code le}), summed over its other labels. */
    TreeMap<Double, Double> buckets(String name) {
        return buckets(name, labels -> true);
    }

    /** The same, of the samples whose labels (the whole {@code {...}} text) pass {@code labels}. */
    TreeMap<Double, Double> buckets(String name, Predicate<String> labels) {
        TreeMap<Double, Double> buckets = new TreeMap<>();
        for (String line : page.lines().toList()) {
            if (line.startsWith(name + "_bucket{") && labels.test(line.substring(name.length() + 7, line.indexOf('}') + 1))) {
                int at = line.indexOf("le=\"") + "le=\"".length();
                String bound = line.substring(at, line.indexOf('"', at));
                buckets.merge(bound.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(bound),
                        value(line, line.indexOf('}') + 1), Double::sum);
            }
        }
        return buckets;
    }

    /**
     * The upper bound of the bucket holding the {@code quantile} of what was recorded between two pages (a histogram's
     * precision: the figure is at most one bucket high).
     */
    static double quantile(TreeMap<Double, Double> before, TreeMap<Double, Double> after, double quantile) {
        if (after.isEmpty()) {
            return Double.NaN;
        }
        double total = after.lastEntry().getValue() - before.getOrDefault(after.lastKey(), 0.0);
        for (Map.Entry<Double, Double> bucket : after.entrySet()) {
            if (bucket.getValue() - before.getOrDefault(bucket.getKey(), 0.0) >= quantile * total) {
                return bucket.getKey();
            }
        }
        return Double.NaN;
    }

    /** The same, of a histogram's samples whose labels pass {@code labels}, read from two pages. */
    static double quantile(Meters before, Meters after, String name, Predicate<String> labels, double quantile) {
        return quantile(before.buckets(name, labels), after.buckets(name, labels), quantile);
    }

    /** Successful DynamoDB calls by operation (StoreCallMeter's counts). */
    Map<String, Double> storeCalls() {
        Map<String, Double> calls = new TreeMap<>();
        for (String line : page.lines().toList()) {
            if (line.startsWith("cabinet_dynamodb_calls_seconds_count{") && line.contains("outcome=\"success\"")) {
                int at = line.indexOf("operation=\"") + "operation=\"".length();
                String operation = line.substring(at, line.indexOf('"', at));
                calls.merge(operation, value(line, line.indexOf('}') + 1), Double::sum);
            }
        }
        return calls;
    }

    /**
     * The mean of a timer between two pages, in milliseconds, by the value of one label (its {@code _sum} over its
     * {@code _count}), for the samples whose labels pass {@code labels}: how long a store call or an event's
     * application took on average over a phase. Each entry is {count, mean ms}.
     */
    static Map<String, double[]> means(Meters before, Meters after, String timer, String label,
            Predicate<String> labels) {
        Map<String, double[]> now = after.totals(timer, label, labels);
        Map<String, double[]> then = before.totals(timer, label, labels);
        Map<String, double[]> means = new TreeMap<>();
        now.forEach((value, total) -> {
            double[] earlier = then.getOrDefault(value, new double[2]);
            double count = total[0] - earlier[0];
            if (count > 0) {
                means.put(value, new double[] {count, (total[1] - earlier[1]) / count * 1000});
            }
        });
        return means;
    }

    /** A timer's {count, sum of seconds} by the value of {@code label}. */
    private Map<String, double[]> totals(String timer, String label, Predicate<String> labels) {
        Map<String, double[]> totals = new TreeMap<>();
        for (String line : page.lines().toList()) {
            boolean count = line.startsWith(timer + "_count{");
            if ((count || line.startsWith(timer + "_sum{")) && labels.test(line.substring(0, line.indexOf('}') + 1))) {
                int at = line.indexOf(label + "=\"");
                if (at < 0) {
                    continue;
                }
                at += label.length() + 2;
                String value = line.substring(at, line.indexOf('"', at));
                totals.computeIfAbsent(value, v -> new double[2])[count ? 0 : 1] += value(line, line.indexOf('}') + 1);
            }
        }
        return totals;
    }
}

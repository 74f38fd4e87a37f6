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
}

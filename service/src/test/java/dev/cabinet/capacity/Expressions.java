package dev.cabinet.capacity;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DynamoDB's update, condition and key-condition expressions evaluated on an item in memory, for the subset Cabinet
 * writes (top-level attributes; SET with {@code if_not_exists}, {@code +} and {@code -}; REMOVE; ADD and DELETE of
 * sets and numbers; AND, OR, NOT, comparisons, BETWEEN, {@code attribute_exists}, {@code attribute_not_exists},
 * {@code contains} and {@code begins_with}). Anything else fails loudly, so the model never counts a write it did not
 * understand.
 */
final class Expressions {

    private final Map<String, String> names;
    private final Map<String, AttributeValue> values;
    private List<String> tokens;
    private int at;

    private Expressions(Map<String, String> names, Map<String, AttributeValue> values) {
        this.names = names == null ? Map.of() : names;
        this.values = values == null ? Map.of() : values;
    }

    /** Whether the item (null: none) meets the condition (null or blank: always). */
    static boolean holds(String condition, Map<String, String> names, Map<String, AttributeValue> values,
            Map<String, AttributeValue> item) {
        if (condition == null || condition.isBlank()) {
            return true;
        }
        Expressions expressions = new Expressions(names, values);
        expressions.start(condition);
        boolean holds = expressions.or(item == null ? Map.of() : item);
        expressions.end(condition);
        return holds;
    }

    /** The item after the update expression (a new item from {@code key} when there was none). */
    static Map<String, AttributeValue> update(String update, Map<String, String> names,
            Map<String, AttributeValue> values, Map<String, AttributeValue> key, Map<String, AttributeValue> item) {
        Map<String, AttributeValue> after = new HashMap<>(item == null ? key : item);
        Expressions expressions = new Expressions(names, values);
        expressions.start(update);
        while (!expressions.done()) {
            String clause = expressions.next().toUpperCase();
            do {
                String path = expressions.path();
                switch (clause) {
                    case "SET" -> {
                        expressions.expect("=");
                        AttributeValue value = expressions.setValue(item == null ? Map.of() : item);
                        after.put(path, value);
                    }
                    case "REMOVE" -> after.remove(path);
                    case "ADD" -> after.put(path, add(after.get(path), expressions.operand(after)));
                    case "DELETE" -> {
                        AttributeValue left = delete(after.get(path), expressions.operand(after));
                        if (left == null) {
                            after.remove(path);
                        } else {
                            after.put(path, left);
                        }
                    }
                    default -> throw new IllegalArgumentException("no clause " + clause + " in " + update);
                }
            } while (expressions.accept(","));
        }
        return after;
    }

    /** Whether the item matches a query's key condition ({@code #pk = :pk AND <sort key condition>}). */
    static boolean matchesKey(String keyCondition, Map<String, String> names, Map<String, AttributeValue> values,
            Map<String, AttributeValue> item) {
        return holds(keyCondition, names, values, item);
    }

    // --- conditions --------------------------------------------------------------------------------------------------

    private boolean or(Map<String, AttributeValue> item) {
        boolean result = and(item);
        while (accept("OR")) {
            result = and(item) | result;
        }
        return result;
    }

    private boolean and(Map<String, AttributeValue> item) {
        boolean result = not(item);
        while (accept("AND")) {
            result = not(item) & result;
        }
        return result;
    }

    private boolean not(Map<String, AttributeValue> item) {
        if (accept("NOT")) {
            return !not(item);
        }
        if (accept("(")) {
            boolean inner = or(item);
            expect(")");
            return inner;
        }
        String word = peek();
        switch (word.toLowerCase()) {
            case "attribute_exists" -> {
                next();
                expect("(");
                boolean exists = item.containsKey(path());
                expect(")");
                return exists;
            }
            case "attribute_not_exists" -> {
                next();
                expect("(");
                boolean absent = !item.containsKey(path());
                expect(")");
                return absent;
            }
            case "contains" -> {
                next();
                expect("(");
                AttributeValue container = item.get(path());
                expect(",");
                AttributeValue element = operand(item);
                expect(")");
                return contains(container, element);
            }
            case "begins_with" -> {
                next();
                expect("(");
                AttributeValue text = item.get(path());
                expect(",");
                AttributeValue prefix = operand(item);
                expect(")");
                return text != null && text.s() != null && text.s().startsWith(prefix.s());
            }
            default -> {
                AttributeValue left = operand(item);
                if (accept("BETWEEN")) {
                    AttributeValue low = operand(item);
                    expect("AND");
                    AttributeValue high = operand(item);
                    return left != null && compare(left, low) >= 0 && compare(left, high) <= 0;
                }
                String operator = next();
                AttributeValue right = operand(item);
                if (left == null || right == null) {
                    return "<>".equals(operator) && (left == null) != (right == null);
                }
                int compared = compare(left, right);
                return switch (operator) {
                    case "=" -> compared == 0;
                    case "<>" -> compared != 0;
                    case "<" -> compared < 0;
                    case "<=" -> compared <= 0;
                    case ">" -> compared > 0;
                    case ">=" -> compared >= 0;
                    default -> throw new IllegalArgumentException("no operator " + operator);
                };
            }
        }
    }

    // --- values --------------------------------------------------------------------------------------------------

    /** A SET's right side: an operand, or two joined by + or -. */
    private AttributeValue setValue(Map<String, AttributeValue> item) {
        AttributeValue left = operand(item);
        if (accept("+")) {
            return number(decimal(left).add(decimal(operand(item))));
        }
        if (accept("-")) {
            return number(decimal(left).subtract(decimal(operand(item))));
        }
        return left;
    }

    /** A value placeholder, an attribute of the item, or {@code if_not_exists(path, operand)}. */
    private AttributeValue operand(Map<String, AttributeValue> item) {
        String token = peek();
        if (token.startsWith(":")) {
            next();
            AttributeValue value = values.get(token);
            if (value == null) {
                throw new IllegalArgumentException("no value for " + token);
            }
            return value;
        }
        if (token.equalsIgnoreCase("if_not_exists")) {
            next();
            expect("(");
            AttributeValue current = item.get(path());
            expect(",");
            AttributeValue fallback = operand(item);
            expect(")");
            return current != null ? current : fallback;
        }
        return item.get(path());
    }

    private String path() {
        String token = next();
        String name = token.startsWith("#") ? names.get(token) : token;
        if (name == null || peek().equals(".") || peek().equals("[")) {
            throw new IllegalArgumentException("the model reads top-level attributes only, not " + token);
        }
        return name;
    }

    private static AttributeValue add(AttributeValue current, AttributeValue added) {
        if (added.n() != null) {
            return number(decimal(current == null ? AttributeValue.fromN("0") : current).add(decimal(added)));
        }
        if (added.hasSs()) {
            Set<String> set = new LinkedHashSet<>(current == null ? List.of() : current.ss());
            set.addAll(added.ss());
            return AttributeValue.fromSs(new ArrayList<>(set));
        }
        throw new IllegalArgumentException("ADD of " + added);
    }

    private static AttributeValue delete(AttributeValue current, AttributeValue removed) {
        if (current == null) {
            return null;
        }
        Set<String> set = new LinkedHashSet<>(current.ss());
        removed.ss().forEach(set::remove);
        return set.isEmpty() ? null : AttributeValue.fromSs(new ArrayList<>(set));
    }

    private static boolean contains(AttributeValue container, AttributeValue element) {
        if (container == null) {
            return false;
        }
        if (container.hasSs()) {
            return container.ss().contains(element.s());
        }
        if (container.hasL()) {
            return container.l().contains(element);
        }
        return container.s() != null && container.s().contains(element.s());
    }

    private static int compare(AttributeValue left, AttributeValue right) {
        if (left.n() != null && right.n() != null) {
            return decimal(left).compareTo(decimal(right));
        }
        if (left.s() != null && right.s() != null) {
            return left.s().compareTo(right.s());
        }
        return left.equals(right) ? 0 : 1;
    }

    private static BigDecimal decimal(AttributeValue value) {
        return new BigDecimal(value.n());
    }

    private static AttributeValue number(BigDecimal value) {
        return AttributeValue.fromN(value.stripTrailingZeros().toPlainString());
    }

    // --- tokens --------------------------------------------------------------------------------------------------

    private void start(String expression) {
        tokens = new ArrayList<>();
        int i = 0;
        while (i < expression.length()) {
            char c = expression.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if ("(),=+-.[]".indexOf(c) >= 0) {
                tokens.add(String.valueOf(c));
                i++;
            } else if (c == '<' || c == '>') {
                int length = i + 1 < expression.length() && "=>".indexOf(expression.charAt(i + 1)) >= 0 ? 2 : 1;
                tokens.add(expression.substring(i, i + length));
                i += length;
            } else {
                int start = i;
                while (i < expression.length() && !Character.isWhitespace(expression.charAt(i))
                        && "(),=+-<>.[]".indexOf(expression.charAt(i)) < 0) {
                    i++;
                }
                tokens.add(expression.substring(start, i));
            }
        }
        at = 0;
    }

    private void end(String expression) {
        if (!done()) {
            throw new IllegalArgumentException("left over in " + expression + ": " + tokens.subList(at, tokens.size()));
        }
    }

    private boolean done() {
        return at >= tokens.size();
    }

    private String peek() {
        return done() ? "" : tokens.get(at);
    }

    private String next() {
        if (done()) {
            throw new IllegalArgumentException("the expression ends early");
        }
        return tokens.get(at++);
    }

    private boolean accept(String token) {
        if (!done() && tokens.get(at).equalsIgnoreCase(token)) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(String token) {
        if (!accept(token)) {
            throw new IllegalArgumentException("expected " + token + " at " + peek());
        }
    }
}

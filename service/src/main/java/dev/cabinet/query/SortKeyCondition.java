package dev.cabinet.query;

/** The sort-key half of a key condition: none, a prefix, or a closed range. */
public record SortKeyCondition(Kind kind, String from, String to) {

    /** How the sort key is constrained. */
    public enum Kind {
        ANY, BEGINS_WITH, BETWEEN
    }

    public static SortKeyCondition any() {
        return new SortKeyCondition(Kind.ANY, null, null);
    }

    public static SortKeyCondition beginsWith(String prefix) {
        return new SortKeyCondition(Kind.BEGINS_WITH, prefix, null);
    }

    public static SortKeyCondition between(String from, String to) {
        return new SortKeyCondition(Kind.BETWEEN, from, to);
    }
}

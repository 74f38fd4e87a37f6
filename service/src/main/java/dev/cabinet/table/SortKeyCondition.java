package dev.cabinet.table;

/** The sort-key half of a key condition: none, a prefix, a closed range, or strictly before or after a key. */
public record SortKeyCondition(Kind kind, String from, String to) {

    /** How the sort key is constrained. */
    public enum Kind {
        ANY, BEGINS_WITH, BETWEEN, BEFORE, AFTER
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

    public static SortKeyCondition before(String sortKey) {
        return new SortKeyCondition(Kind.BEFORE, sortKey, null);
    }

    public static SortKeyCondition after(String sortKey) {
        return new SortKeyCondition(Kind.AFTER, sortKey, null);
    }

    /** Whether a sort key meets this condition, compared as DynamoDB compares strings (by UTF-8 bytes). */
    public boolean matches(String sortKey) {
        return switch (kind) {
            case ANY -> true;
            case BEGINS_WITH -> sortKey.startsWith(from);
            case BETWEEN -> compare(from, sortKey) <= 0 && compare(sortKey, to) <= 0;
            case BEFORE -> compare(sortKey, from) < 0;
            case AFTER -> compare(sortKey, from) > 0;
        };
    }

    private static int compare(String a, String b) {
        return java.util.Arrays.compareUnsigned(a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * This condition narrowed to the keys that come after {@code last} in reading order ({@code newestFirst}: smaller
     * keys). A range read newest first can only be narrowed to include {@code last}; {@link #includesBound} says so,
     * and the reader drops that one item, which it has already returned.
     */
    public SortKeyCondition continuing(String last, boolean newestFirst) {
        return switch (kind) {
            case ANY -> newestFirst ? before(last) : after(last);
            case BETWEEN -> newestFirst ? between(from, last) : between(last + '\0', to);
            default -> throw new IllegalArgumentException("a merged read cannot continue a " + kind + " condition");
        };
    }

    /**
     * This condition narrowed to the keys up to {@code last} included, which it matches (a walk's first page, read
     * oldest first, ends there): a prefix's keys up to it are those between the prefix and it.
     */
    public SortKeyCondition upTo(String last) {
        return switch (kind) {
            case ANY -> before(last + '\0');
            case BEGINS_WITH -> between(from, last);
            case BETWEEN -> between(from, compare(last, to) < 0 ? last : to);
            case BEFORE -> compare(last, from) < 0 ? before(last + '\0') : this;
            case AFTER -> between(from + '\0', last);
        };
    }

    /**
     * Whether the condition matches no key at all: a range continued past its last key (a page that ended on a sample
     * at exactly the range's end), which DynamoDB would refuse as a BETWEEN whose bounds are reversed.
     */
    public boolean matchesNothing() {
        return kind == Kind.BETWEEN && compare(from, to) > 0;
    }

    /** Whether a {@link #continuing} condition still matches the key it continues after. */
    public boolean includesBound(boolean newestFirst) {
        return kind == Kind.BETWEEN && newestFirst;
    }
}

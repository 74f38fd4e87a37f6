package dev.cabinet.table;

import java.util.List;
import java.util.stream.IntStream;

/**
 * The Query of an access pattern, defined from the key plan's templates: the item collection it reads (and so the index
 * and partition-key template), a sort-key condition made of its item types' sort-key templates (none, one type's
 * prefix, the range from one type's prefix to another type's key, or a range of values of one type's leading
 * placeholder), and the order. The reading code builds its {@link KeyQuery} here, and docs/key-plan.md describes the
 * same definition, so the two cannot drift apart. A partition-key template with a {@code {shard}} placeholder is a
 * write-sharded list: one Query per shard, merged by the reader.
 */
public final class QueryDefinition implements TableRead {

    /** The order a Query reads its sort keys in; {@code EITHER} when the caller chooses. */
    public enum Order {
        ASCENDING, DESCENDING, EITHER
    }

    /** How the sort key is constrained. */
    public enum SortKey {
        /** Every item of the partition. */
        ANY,
        /** {@code begins_with} the literal prefix of one item type's sort key. */
        PREFIX,
        /** From one item type's sort-key prefix to another item type's sort key (the whole of its keys). */
        BETWEEN,
        /** Between two values of one item type's leading sort-key placeholder, given at query time. */
        RANGE
    }

    private static final String SHARD = "shard";

    private final String label;
    private final ItemCollection collection;
    private final SortKey sortKey;
    private final ItemType lower;
    private final ItemType upper;
    private final Order order;
    private final boolean consistent;
    private final String note;

    private QueryDefinition(Builder builder) {
        this.label = builder.label;
        this.collection = builder.collection;
        this.sortKey = builder.sortKey;
        this.lower = builder.lower;
        this.upper = builder.upper;
        this.order = builder.order;
        this.consistent = builder.consistent;
        this.note = builder.note;
    }

    /** A Query over a declared item collection. */
    public static Builder over(ItemCollection collection) {
        return new Builder(collection);
    }

    /** A Query over one item type alone (its own one-type collection) in an index. */
    public static Builder over(Index index, ItemType itemType) {
        return new Builder(ItemCollection.of(index, itemType));
    }

    // ---- building the Query -------------------------------------------------------------------------------------

    /** The Query for this partition, in the defined order. */
    public KeyQuery query(Object... partitionValues) {
        require(!sharded() && sortKey != SortKey.RANGE, "query(partition values)");
        return KeyQuery.of(index(), partition(null, partitionValues), condition(), fixedOrder());
    }

    /** The Query for this partition in the order the caller chose (a definition of {@link Order#EITHER}). */
    public KeyQuery inOrder(boolean newestFirst, Object... partitionValues) {
        require(!sharded() && sortKey != SortKey.RANGE && order == Order.EITHER, "inOrder(newestFirst, values)");
        return KeyQuery.of(index(), partition(null, partitionValues), condition(), newestFirst);
    }

    /**
     * The Query for the items whose leading sort-key value is from {@code from} to {@code to}, both inclusive; a null
     * end is open, and with both ends open this is every item of the type (its prefix).
     */
    public KeyQuery inRange(Object from, Object to, boolean newestFirst, Object... partitionValues) {
        require(!sharded() && sortKey == SortKey.RANGE && order == Order.EITHER, "inRange(from, to, order, ...)");
        return KeyQuery.of(index(), partition(null, partitionValues), conditionInRange(from, to), newestFirst);
    }

    /** One Query per shard, shard 0 first, for a write-sharded list the reader merges. */
    public List<KeyQuery> shards(int shards, Object... partitionValues) {
        require(sharded() && sortKey != SortKey.RANGE, "shards(count, partition values)");
        return IntStream.range(0, shards)
                .mapToObj(shard -> KeyQuery.of(index(), partition(shard, partitionValues), condition(), fixedOrder()))
                .toList();
    }

    /** One Query per shard for the items from {@code from} to {@code to} (inclusive), as {@link #inRange}. */
    public List<KeyQuery> shardsInRange(int shards, Object from, Object to, Object... partitionValues) {
        require(sharded() && sortKey == SortKey.RANGE, "shardsInRange(count, from, to, partition values)");
        SortKeyCondition condition = conditionInRange(from, to);
        return IntStream.range(0, shards)
                .mapToObj(shard -> KeyQuery.of(index(), partition(shard, partitionValues), condition, fixedOrder()))
                .toList();
    }

    /** The sort-key condition of a definition without query-time values. */
    public SortKeyCondition condition() {
        return switch (sortKey) {
            case ANY -> SortKeyCondition.any();
            case PREFIX -> SortKeyCondition.beginsWith(sk(lower).prefix());
            case BETWEEN -> SortKeyCondition.between(sk(lower).prefix(), upperBound(sk(upper)));
            case RANGE -> throw new IllegalStateException(this + " takes its range at query time");
        };
    }

    /** The sort-key condition of a {@link SortKey#RANGE} definition for these ends (null: open). */
    public SortKeyCondition conditionInRange(Object from, Object to) {
        require(sortKey == SortKey.RANGE, "conditionInRange");
        KeyTemplate template = sk(lower);
        if (from == null && to == null) {
            return SortKeyCondition.beginsWith(template.prefix());
        }
        return SortKeyCondition.between(from == null ? template.prefix() : template.bound(from, false),
                to == null ? template.prefix() + '~' : template.bound(to, true));
    }

    /** The whole of an item type's sort keys ends at its fixed key, or just after every key with its prefix. */
    private static String upperBound(KeyTemplate template) {
        return template.placeholders().isEmpty() ? template.text() : template.prefix() + '~';
    }

    private String partition(Integer shard, Object[] values) {
        List<String> names = collection.partition().placeholders();
        Object[] ordered = new Object[names.size()];
        int given = 0;
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equals(SHARD)) {
                ordered[i] = shard;
            } else {
                if (given == values.length) {
                    throw new IllegalArgumentException(this + " needs values for " + names);
                }
                ordered[i] = values[given++];
            }
        }
        if (given != values.length) {
            throw new IllegalArgumentException(this + " takes values for " + names + ", got " + values.length);
        }
        return collection.partition().render(ordered);
    }

    private boolean fixedOrder() {
        require(order != Order.EITHER, "a fixed order");
        return order == Order.DESCENDING;
    }

    private void require(boolean condition, String call) {
        if (!condition) {
            throw new IllegalStateException(call + " does not fit " + this);
        }
    }

    private KeyTemplate sk(ItemType type) {
        return ItemCollection.skOf(type, index());
    }

    // ---- the definition ---------------------------------------------------------------------------------------

    public ItemCollection collection() {
        return collection;
    }

    @Override
    public Index index() {
        return collection.index();
    }

    @Override
    public List<ItemType> itemTypes() {
        return collection.itemTypes();
    }

    public SortKey sortKey() {
        return sortKey;
    }

    public Order order() {
        return order;
    }

    public boolean consistent() {
        return consistent;
    }

    /** Whether the list is written across shards: one Query per {@code {shard}} value, merged. */
    public boolean sharded() {
        return collection.partition().placeholders().contains(SHARD);
    }

    @Override
    public String describe() {
        String skAttribute = index().skAttribute();
        StringBuilder text = new StringBuilder();
        if (label != null) {
            text.append(label).append(": ");
        }
        text.append("Query ");
        if (index() != Index.TABLE) {
            text.append(index().indexName()).append(' ');
        }
        text.append(collection.partition());
        if (sharded()) {
            text.append(" for each shard 0..n-1 in parallel, merged by ").append(skAttribute);
        }
        switch (sortKey) {
            case PREFIX -> text.append(", begins_with(").append(skAttribute).append(", '").append(sk(lower).prefix())
                    .append("')");
            case BETWEEN -> text.append(", ").append(skAttribute).append(" BETWEEN '").append(sk(lower).prefix())
                    .append("' AND '").append(upperBound(sk(upper))).append('\'');
            case RANGE -> {
                KeyTemplate template = sk(lower);
                String placeholder = template.placeholders().get(0);
                boolean continues = !template.text().endsWith("{" + placeholder + "}");
                String prefix = template.prefix().isEmpty() ? "" : "'" + template.prefix() + "' + ";
                text.append(", ").append(skAttribute).append(" BETWEEN ").append(prefix).append(":from AND ")
                        .append(prefix).append(":to").append(continues ? " + '~'" : "").append(" (")
                        .append(placeholder).append(" values)");
            }
            default -> {
            }
        }
        text.append(", ").append(switch (order) {
            case ASCENDING -> "ascending";
            case DESCENDING -> "descending";
            case EITHER -> "ascending or descending";
        });
        if (consistent) {
            text.append(" (consistent read)");
        }
        if (note != null) {
            text.append(" (").append(note).append(')');
        }
        return text.toString();
    }

    @Override
    public String toString() {
        return "Query of " + collection + " " + sortKey + " " + order;
    }

    /** Builds a {@link QueryDefinition}; used by {@link KeyPlan}. */
    public static final class Builder {
        private final ItemCollection collection;
        private String label;
        private SortKey sortKey = SortKey.ANY;
        private ItemType lower;
        private ItemType upper;
        private Order order = Order.ASCENDING;
        private boolean consistent;
        private String note;

        private Builder(ItemCollection collection) {
            this.collection = collection;
        }

        /** {@code begins_with} the item type's sort-key prefix. */
        public Builder prefix(ItemType type) {
            return sortKey(SortKey.PREFIX, type, null);
        }

        /** From {@code from}'s sort-key prefix to {@code to}'s sort key, both types' items included. */
        public Builder between(ItemType from, ItemType to) {
            return sortKey(SortKey.BETWEEN, from, to);
        }

        /** Between two values of the item type's leading sort-key placeholder, given at query time. */
        public Builder range(ItemType type) {
            return sortKey(SortKey.RANGE, type, null);
        }

        private Builder sortKey(SortKey kind, ItemType from, ItemType to) {
            for (ItemType type : new ItemType[] {from, to}) {
                if (type != null && !collection.declares(type)) {
                    throw new IllegalArgumentException(type + " is not in the collection " + collection);
                }
            }
            this.sortKey = kind;
            this.lower = from;
            this.upper = to;
            return this;
        }

        public Builder ascending() {
            this.order = Order.ASCENDING;
            return this;
        }

        public Builder descending() {
            this.order = Order.DESCENDING;
            return this;
        }

        /** The caller chooses the order. */
        public Builder eitherOrder() {
            this.order = Order.EITHER;
            return this;
        }

        public Builder consistentRead() {
            this.consistent = true;
            return this;
        }

        /** What the pattern's reader names this Query, when the pattern makes more than one read. */
        public Builder label(String text) {
            this.label = text;
            return this;
        }

        /** A remark the document adds in parentheses. */
        public Builder note(String text) {
            this.note = text;
            return this;
        }

        public QueryDefinition build() {
            return new QueryDefinition(this);
        }
    }
}

package dev.cabinet.table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * One kind of item in the single table: its entity name (the {@code type} attribute), key templates, GSI entries and
 * attributes. Keys of this type are only ever made here, never concatenated elsewhere.
 */
public final class ItemType {

    private final String name;
    private final KeyTemplate pk;
    private final KeyTemplate sk;
    private final boolean permanent;
    private final List<String> attributes;
    private final List<IndexEntry> indexEntries;
    private final String notes;
    private final ItemType deletedWith;

    private ItemType(String name, KeyTemplate pk, KeyTemplate sk, boolean permanent, List<String> attributes,
            List<IndexEntry> indexEntries, String notes, ItemType deletedWith) {
        this.name = name;
        this.pk = pk;
        this.sk = sk;
        this.permanent = permanent;
        this.attributes = List.copyOf(attributes);
        this.indexEntries = List.copyOf(indexEntries);
        this.notes = notes;
        this.deletedWith = deletedWith;
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    public KeyTemplate pk() {
        return pk;
    }

    public KeyTemplate sk() {
        return sk;
    }

    /**
     * Whether an item of this type, once written, is never deleted (no plan may delete one): a decision that looks only
     * at whether one exists decides the same whenever it is made again ({@code Projector#existenceNeeds}).
     */
    public boolean permanent() {
        return permanent;
    }

    public List<String> attributes() {
        return attributes;
    }

    /** Whether an item of this type has the attribute: declared, its entity name, or a placeholder of its keys. */
    public boolean declares(String attribute) {
        return attributes.contains(attribute) || attribute.equals(KeyPlan.TYPE) || pk.placeholders().contains(attribute)
                || sk.placeholders().contains(attribute) || indexEntries.stream().anyMatch(entry -> entry.pk()
                        .placeholders().contains(attribute) || entry.sk().placeholders().contains(attribute));
    }

    public List<IndexEntry> indexEntries() {
        return indexEntries;
    }

    public Optional<IndexEntry> entryIn(Index index) {
        return indexEntries.stream().filter(e -> e.index() == index).findFirst();
    }

    public String notes() {
        return notes;
    }

    /**
     * The item type whose deletion takes every item of this type under it (a post's comments and likes go with the
     * post): the owner's projector deletes {@link #collectionUnder} each type {@link KeyPlan#deletedWith}
     * names, so a new type declares here that it goes, and no deletion is edited for it.
     */
    public Optional<ItemType> deletedWith() {
        return Optional.ofNullable(deletedWith);
    }

    /**
     * Every item of this type under the owner these named values describe (the owner's key placeholders, e.g.
     * {@code postId}): its partition, narrowed to this type's sort keys by their leading literal (a partition may hold
     * other types: a post's comments share the post's).
     */
    public KeyQuery collectionUnder(java.util.Map<String, ?> ownerValues) {
        String partition = pk.renderFrom(ownerValues).orElseThrow(() -> missing(pk, ownerValues));
        return KeyQuery.of(Index.TABLE, partition, sk.prefix().isEmpty() ? SortKeyCondition.any()
                : SortKeyCondition.beginsWith(sk.prefix()), false);
    }

    /** The item's key from the values of the pk placeholders followed by those of the sk placeholders. */
    public Key key(Object... values) {
        int pkCount = pk.placeholders().size();
        return new Key(pk.render(Arrays.copyOfRange(values, 0, pkCount)),
                sk.render(Arrays.copyOfRange(values, pkCount, values.length)));
    }

    /** The key of the item these named values describe (placeholder name to value, e.g. {@code postId}). */
    public Key keyFrom(java.util.Map<String, ?> values) {
        return new Key(pk.renderFrom(values).orElseThrow(() -> missing(pk, values)),
                sk.renderFrom(values).orElseThrow(() -> missing(sk, values)));
    }

    /**
     * A write of the item these named values describe: its key, its {@code type}, every GSI entry whose placeholders all
     * have values (an entry missing one is left out: that is how a sparse index stays sparse), and a SET of each
     * declared attribute given a value. Values only named by key templates (e.g. {@code shard}) are not stored.
     */
    public ItemUpdate write(java.util.Map<String, ?> values) {
        requireDeclared(values);
        ItemUpdate update = ItemUpdate.of(keyFrom(values), name);
        for (IndexEntry entry : indexEntries) {
            java.util.Optional<String> entryPk = entry.pk().renderFrom(values);
            java.util.Optional<String> entrySk = entry.sk().renderFrom(values);
            if (entryPk.isPresent() && entrySk.isPresent()) {
                update.set(entry.index().pkAttribute(), entryPk.get()).set(entry.index().skAttribute(), entrySk.get());
            }
        }
        for (String attribute : attributes) {
            if (values.containsKey(attribute)) {
                update.set(attribute, values.get(attribute));
            }
        }
        return update;
    }

    /**
     * The whole item these named values describe, as {@link #write} composes it (key, {@code type}, GSI entries and the
     * declared attributes given a value): for facts put as they are, with no condition.
     */
    public java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item(
            java.util.Map<String, ?> values) {
        requireDeclared(values);
        java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item =
                new java.util.HashMap<>(keyFrom(values).toAttributes());
        item.put(KeyPlan.TYPE, AttributeValues.of(name));
        for (IndexEntry entry : indexEntries) {
            java.util.Optional<String> entryPk = entry.pk().renderFrom(values);
            java.util.Optional<String> entrySk = entry.sk().renderFrom(values);
            if (entryPk.isPresent() && entrySk.isPresent()) {
                item.put(entry.index().pkAttribute(), AttributeValues.of(entryPk.get()));
                item.put(entry.index().skAttribute(), AttributeValues.of(entrySk.get()));
            }
        }
        for (String attribute : attributes) {
            if (values.containsKey(attribute)) {
                item.put(attribute, AttributeValues.of(values.get(attribute)));
            }
        }
        return item;
    }

    /**
     * Every value named must be an attribute of this type or a placeholder of one of its keys: a value under any other
     * name would be dropped without a word, so it fails the first test that writes it instead.
     */
    private void requireDeclared(java.util.Map<String, ?> values) {
        values.keySet().forEach(this::requireDeclared);
    }

    /** Fails unless an item of this type has the attribute ({@link #declares}), naming the ones it has. */
    void requireDeclared(String attribute) {
        if (!declares(attribute)) {
            throw new IllegalArgumentException(name + " has no attribute " + attribute + " in the key plan (KeyPlan): "
                    + "declare it, or leave it out; its attributes: " + attributes);
        }
    }

    private IllegalArgumentException missing(KeyTemplate template, java.util.Map<String, ?> values) {
        return new IllegalArgumentException(name + ": " + template + " needs " + template.placeholders() + ", given "
                + values.keySet());
    }

    /** Whether the key has this type's shape (its templates' literals around non-empty values). */
    public boolean matches(Key key) {
        return pk.matches(key.pk()) && sk.matches(key.sk());
    }

    /** The partition key alone, for queries over this type's item collection. */
    public String partition(Object... values) {
        return pk.render(values);
    }

    @Override
    public String toString() {
        return name;
    }

    /** Builds an {@link ItemType}; used only by {@link KeyPlan}. */
    public static final class Builder {
        private final String name;
        private KeyTemplate pk;
        private KeyTemplate sk;
        private final List<String> attributes = new ArrayList<>();
        private final List<IndexEntry> indexEntries = new ArrayList<>();
        private String notes = "";
        private boolean permanent;
        private ItemType deletedWith;

        private Builder(String name) {
            this.name = name;
        }

        public Builder key(String pkTemplate, String skTemplate) {
            this.pk = KeyTemplate.of(pkTemplate);
            this.sk = KeyTemplate.of(skTemplate);
            return this;
        }

        public Builder attributes(String... names) {
            attributes.addAll(List.of(names));
            return this;
        }

        public Builder index(Index index, String pkTemplate, String skTemplate, String condition, String... projected) {
            indexEntries.add(new IndexEntry(index, KeyTemplate.of(pkTemplate), KeyTemplate.of(skTemplate), condition,
                    List.of(projected)));
            return this;
        }

        /** Items of this type are never deleted once written ({@link ItemType#permanent()}). */
        public Builder permanent() {
            this.permanent = true;
            return this;
        }

        public Builder notes(String text) {
            this.notes = text;
            return this;
        }

        /**
         * Items of this type go when an item of {@code owner} is deleted ({@link ItemType#deletedWith()}); their partition
         * key must be made of the owner's partition key values alone, so that the owner's deletion can name it.
         */
        public Builder deletedWith(ItemType owner) {
            this.deletedWith = owner;
            return this;
        }

        public ItemType build() {
            if (deletedWith != null && (permanent
                    || !deletedWith.pk().placeholders().containsAll(pk.placeholders()))) {
                throw new IllegalArgumentException(name + " cannot go with " + deletedWith.name() + ": "
                        + (permanent ? "it is permanent" : "its partition " + pk + " is not made of "
                                + deletedWith.pk().placeholders()));
            }
            return new ItemType(name, pk, sk, permanent, attributes, indexEntries, notes, deletedWith);
        }
    }
}

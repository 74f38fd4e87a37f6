package dev.cabinet.table;

/** The table's primary index and its two overloaded GSIs, with their generic key attribute names. */
public enum Index {
    TABLE(null, Key.PK, Key.SK),
    GSI1("gsi1", "gsi1pk", "gsi1sk"),
    GSI2("gsi2", "gsi2pk", "gsi2sk");

    private final String indexName;
    private final String pkAttribute;
    private final String skAttribute;

    Index(String indexName, String pkAttribute, String skAttribute) {
        this.indexName = indexName;
        this.pkAttribute = pkAttribute;
        this.skAttribute = skAttribute;
    }

    /** The GSI's name, or null for the table itself. */
    public String indexName() {
        return indexName;
    }

    public String pkAttribute() {
        return pkAttribute;
    }

    public String skAttribute() {
        return skAttribute;
    }
}

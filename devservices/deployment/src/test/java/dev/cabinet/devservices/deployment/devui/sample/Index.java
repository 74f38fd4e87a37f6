package dev.cabinet.devservices.deployment.devui.sample;

/** The sample key plan's indexes. */
public enum Index {
    TABLE(null, "pk", "sk"), GSI1("gsi1", "gsi1pk", "gsi1sk");

    private final String indexName;
    private final String pkAttribute;
    private final String skAttribute;

    Index(String indexName, String pkAttribute, String skAttribute) {
        this.indexName = indexName;
        this.pkAttribute = pkAttribute;
        this.skAttribute = skAttribute;
    }

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

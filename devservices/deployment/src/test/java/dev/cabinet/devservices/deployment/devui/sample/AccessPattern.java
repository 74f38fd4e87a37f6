package dev.cabinet.devservices.deployment.devui.sample;

/** The sample key plan's access pattern, shaped like the service's: the indexes its reads use, as the document names them. */
public record AccessPattern(int number, String name, String endpoint, Index index, String keyCondition,
        ItemType... itemTypes) {

    public String indexes() {
        return index == Index.TABLE ? "table" : index.name().toLowerCase();
    }
}

package dev.cabinet.devservices.deployment.devui.sample;

import java.util.List;

/** The sample key plan's item type, with the accessors the reader uses. */
public record ItemType(String name, Template pk, Template sk, List<String> attributes, List<IndexEntry> indexEntries,
        String notes) {

    ItemType(String name, String pk, String sk, List<String> attributes, List<IndexEntry> indexEntries, String notes) {
        this(name, template(pk), template(sk), attributes, indexEntries, notes);
    }

    static Template template(String text) {
        return new Template(text);
    }

    /** A key template: only its text matters to the reader. */
    public record Template(String text) {
    }
}

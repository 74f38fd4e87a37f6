package dev.cabinet.table;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One access pattern of SPEC §2: the read it answers, the endpoint that serves it, and the reads that answer it
 * (usually one; a GetItem of an item type or a {@link QueryDefinition}), which the reading code builds its requests
 * from and docs/key-plan.md describes. {@code callerOnly}: only the user the path names may read it (its endpoint
 * requires a bearer token, which {@code OpenApiTest} checks in the published API document).
 */
public record AccessPattern(int number, String name, String endpoint, List<TableRead> reads, boolean callerOnly) {

    public AccessPattern {
        reads = List.copyOf(reads);
    }

    /** A pattern anyone may read. */
    public AccessPattern(int number, String name, String endpoint, TableRead... reads) {
        this(number, name, endpoint, List.of(reads), false);
    }

    /** The same pattern, readable by the user its path names only. */
    public AccessPattern onlyForTheCaller() {
        return new AccessPattern(number, name, endpoint, reads, true);
    }

    /** The name as the documents show it: a private read says so, from its declaration, not from its wording. */
    public String title() {
        return callerOnly ? name + " (the user only)" : name;
    }

    /** The paths of the endpoint's GETs, without their query strings and optional parts. */
    public List<String> paths() {
        return Arrays.stream(endpoint.split(", ")).filter(read -> read.startsWith("GET "))
                .map(read -> read.substring(4).replaceAll("[?\\[].*$", "")).toList();
    }

    /** The indexes the reads use, as the document names them. */
    public String indexes() {
        return reads.stream().map(read -> read.index() == Index.TABLE ? "table" : read.index().indexName()).distinct()
                .collect(Collectors.joining(", "));
    }

    /** The key condition of each read, rendered from its definition. */
    public String keyCondition() {
        return reads.stream().map(TableRead::describe).collect(Collectors.joining("; "));
    }

    /** The item types the reads can return, each once. */
    public List<ItemType> itemTypes() {
        return List.copyOf(reads.stream().flatMap(read -> read.itemTypes().stream())
                .collect(Collectors.toCollection(LinkedHashSet::new)));
    }

    /** The Query definitions among the reads. */
    public List<QueryDefinition> queries() {
        return reads.stream().filter(QueryDefinition.class::isInstance).map(QueryDefinition.class::cast).toList();
    }
}

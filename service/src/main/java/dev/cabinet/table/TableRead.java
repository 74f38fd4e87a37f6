package dev.cabinet.table;

import java.util.List;

/** One read an access pattern makes, as the key plan defines it: a GetItem of an item type, or a Query definition. */
public sealed interface TableRead permits ItemRead, QueryDefinition {

    Index index();

    /** The item types this read can return. */
    List<ItemType> itemTypes();

    /** The read in words, as docs/key-plan.md shows it, e.g. {@code GetItem USER#{userId} / PROFILE}. */
    String describe();
}

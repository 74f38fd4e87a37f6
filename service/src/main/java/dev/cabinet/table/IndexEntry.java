package dev.cabinet.table;

import java.util.List;

/**
 * An item type's entry in a GSI: its key templates, when the item carries it ({@code condition}, for sparse indexes),
 * and which of its attributes the index projects.
 */
public record IndexEntry(Index index, KeyTemplate pk, KeyTemplate sk, String condition, List<String> projected) {
}

package dev.cabinet.table.query;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/** One page of a list: its items and the cursor of the next page, or null on the last one. */
public record Page<T>(List<T> items, String next) {

    public <R> Page<R> map(Function<T, R> mapper) {
        return new Page<>(items.stream().map(mapper).collect(Collectors.toList()), next);
    }
}

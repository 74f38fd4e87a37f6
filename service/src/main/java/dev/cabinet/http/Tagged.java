package dev.cabinet.http;

/** A single resource's view that carries its entity tag; {@code conditional.ETagFilter} sends it as {@code ETag}. */
public interface Tagged {

    String etag();
}

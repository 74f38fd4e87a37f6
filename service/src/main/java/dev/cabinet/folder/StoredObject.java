package dev.cabinet.folder;

/** What object storage says of an uploaded object (a HEAD): its size in bytes and its content type. */
public record StoredObject(long size, String contentType) {
}

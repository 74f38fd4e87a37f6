package dev.cabinet.folder;

/** Where a file's content is: {@code pending} until the upload is confirmed, then {@code stored}. */
public final class FileStatus {

    public static final String PENDING = "pending";
    public static final String STORED = "stored";

    private FileStatus() {
    }

    /** A file item written before files had a status never had its upload confirmed: it is pending. */
    static String of(String recorded) {
        return recorded == null ? PENDING : recorded;
    }
}

package dev.cabinet.post;

/** A post's life cycle, as stored in the {@code status} attribute. */
public final class PostStatus {

    public static final String DRAFT = "draft";
    public static final String PUBLISHED = "published";

    private PostStatus() {
    }
}

package dev.cabinet.table.query;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Page size bounds of every list endpoint. */
@ConfigMapping(prefix = "cabinet.query")
public interface QueryConfig {

    /** The page size when the client sends no {@code limit}. */
    @WithDefault("20")
    int defaultLimit();

    /** The largest {@code limit} a client may ask for; larger ones are refused with a 400. */
    @WithDefault("100")
    int maxLimit();

    /**
     * The key list cursors are signed with (HMAC-SHA256), at least 32 characters; every instance needs the same one,
     * and changing it invalidates the cursors clients hold. Required in production ({@code CABINET_CURSOR_SECRET}).
     */
    String cursorSecret();
}

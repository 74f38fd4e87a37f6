package dev.cabinet.http;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.vertx.core.json.JsonObject;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * A body over {@code quarkus.http.limits.max-body-size} is refused by the HTTP layer before any resource runs, with an
 * empty 413; this gives that answer the same problem+json body as every other error.
 */
@ApplicationScoped
public class BodyLimitProblem {

    private final String limit;
    private final long maxBytes;

    BodyLimitProblem(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit) {
        this.limit = limit.asLongValue() / 1024 + " KiB";
        this.maxBytes = limit.asLongValue();
    }

    void install(@Observes Router router) {
        // A declared length over the limit is refused here, first, with a problem body; Quarkus's own check (for
        // bodies streamed without a length) answers a bare 413, turned into the same problem by the failure handler.
        router.route().order(Integer.MIN_VALUE).handler(context -> {
            String length = context.request().getHeader("Content-Length");
            if (length != null && length.chars().allMatch(Character::isDigit) && length.length() < 19
                    && Long.parseLong(length) > maxBytes) {
                refuse(context);
            } else {
                context.next();
            }
        }).failureHandler(context -> {
            if (context.statusCode() != 413 || context.response().headWritten()) {
                context.next();
            } else {
                refuse(context);
            }
        });
    }

    private void refuse(RoutingContext context) {
        context.response().setStatusCode(413).putHeader("Content-Type", Problem.MEDIA_TYPE)
                .putHeader("Connection", "close")
                .end(new JsonObject().put("type", Problems.TYPE_PREFIX + "too-large").put("title", "Too large")
                        .put("status", 413).put("detail", "the request body is larger than " + limit
                                + " (quarkus.http.limits.max-body-size)")
                        .put("instance", context.request().path()).encode());
    }
}

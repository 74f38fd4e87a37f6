package dev.cabinet.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.callback.QuarkusTestBeforeClassCallback;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;

/**
 * Writes down every answer the over-the-wire tests receive through REST Assured (method, path, status, media type,
 * body) as JSON lines under target/answers, for {@code OpenApiAnswersIT} to check against docs/openapi.yaml after the
 * tests ran. Registered as a Quarkus test callback, so it is one of the filters of the REST Assured the test classes
 * see. Left out, as the document does not describe them: Quarkus's own endpoints (/q/), the dev-only token issuer
 * (/dev/), the published event contract's files (/contract/, docs/events.md) and CORS preflights (OPTIONS).
 */
public class AnswerRecorder implements QuarkusTestBeforeClassCallback, Filter {

    /** Where the answers go: one file per test JVM, the files of earlier runs removed by the first answer. */
    public static final Path FOLDER = Path.of("target", "answers");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FILE_PROPERTY = "cabinet.answers.file";

    @Override
    public void beforeClass(Class<?> testClass) {
        if (RestAssured.filters().stream().noneMatch(AnswerRecorder.class::isInstance)) {
            RestAssured.filters(new AnswerRecorder());
        }
    }

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification response,
            FilterContext context) {
        Response answer = context.next(request, response);
        // As the server reads it: /users/../groups is /groups, and Quarkus REST matches /groups/g/ as /groups/g (the
        // fuzz test's PUT /groups/g/ was answered 405, as PUT /groups/g is). Not always: where a longer path begins
        // with the same segments, a method the shorter one lacks is answered 404 (the fuzz test's POST
        // /admin/rebuilds/streams/x/.., which is /admin/rebuilds/streams/), so the answer says the slash was there.
        String path = URI.create(request.getURI()).normalize().getRawPath();
        boolean trailingSlash = path.length() > 1 && path.endsWith("/");
        if (trailingSlash) {
            path = path.substring(0, path.length() - 1);
        }
        if (!path.startsWith("/q/") && !path.startsWith("/dev/") && !path.startsWith("/contract/")
                && !request.getMethod().equals("OPTIONS")) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("method", request.getMethod());
            line.put("path", path);
            if (trailingSlash) {
                line.put("trailingSlash", true);
            }
            line.put("status", answer.getStatusCode());
            line.put("contentType", answer.getContentType());
            line.put("body", answer.asString());
            write(line);
        }
        return answer;
    }

    /**
     * Appends one line. Each Quarkus test profile loads this class anew, so the file's name and the lock are kept
     * where every class loader sees the same ones: the system properties.
     */
    private static void write(Map<String, Object> line) {
        Properties shared = System.getProperties();
        synchronized (shared) {
            try {
                String file = shared.getProperty(FILE_PROPERTY);
                if (file == null) {
                    if (Files.isDirectory(FOLDER)) {
                        try (var old = Files.list(FOLDER)) {
                            for (Path stale : old.toList()) {
                                Files.delete(stale);
                            }
                        }
                    }
                    Files.createDirectories(FOLDER);
                    file = FOLDER.resolve("answers-" + ProcessHandle.current().pid() + ".jsonl").toString();
                    shared.setProperty(FILE_PROPERTY, file);
                }
                Files.writeString(Path.of(file), JSON.writeValueAsString(line) + "\n", StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}

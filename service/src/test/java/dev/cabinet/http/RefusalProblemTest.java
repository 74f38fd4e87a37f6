package dev.cabinet.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cabinet.decision.Refusal;

/** A command's refusal becomes the problem each kind has always been answered with; no Quarkus needed. */
class RefusalProblemTest {

    @Test
    void eachKindOfRefusalIsAnsweredWithItsStatusAndProblemType() {
        assertProblem(Refusal.notFound("post", "p1"), 404, "not-found", "post p1 does not exist", null);
        assertProblem(Refusal.forbidden("only the author may"), 403, "forbidden", "only the author may", null);
        assertProblem(Refusal.conflict("already published"), 409, "conflict", "already published", null);
        assertProblem(Refusal.invalid("size", "must be at most 10 bytes"), 400, "validation",
                "size must be at most 10 bytes", List.of(new Problem.FieldError("size", "must be at most 10 bytes")));
    }

    private static void assertProblem(Refusal refusal, int status, String type, String detail,
            List<Problem.FieldError> errors) {
        ProblemException problem = Problems.of(refusal);
        assertEquals(status, problem.status(), refusal.toString());
        assertEquals(Problems.TYPE_PREFIX + type, problem.type(), refusal.toString());
        assertEquals(detail, problem.getMessage(), refusal.toString());
        assertEquals(errors, problem.errors(), refusal.toString());
    }
}

package dev.cabinet.http;

import java.util.List;

import jakarta.ws.rs.core.Response;

/** Builds {@code application/problem+json} responses. */
public final class ProblemResponses {

    private ProblemResponses() {
    }

    public static Response of(int status, String type, String title, String detail, String instance,
            List<Problem.FieldError> errors) {
        return Response.status(status)
                .type(Problem.MEDIA_TYPE)
                .entity(new Problem(type, title, status, detail, instance, errors))
                .build();
    }

    public static Response of(ProblemException problem, String instance) {
        return of(problem.status(), problem.type(), problem.title(), problem.getMessage(), instance, problem.errors());
    }
}

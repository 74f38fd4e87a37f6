package dev.cabinet.http;

import java.util.List;

/** An error with its HTTP status and problem type, thrown by resources and mapped to {@code application/problem+json}. */
public final class ProblemException extends RuntimeException {

    private final int status;
    private final String type;
    private final String title;
    private final List<Problem.FieldError> errors;

    public ProblemException(int status, String type, String title, String detail, List<Problem.FieldError> errors) {
        super(detail, null, false, false);
        this.status = status;
        this.type = type;
        this.title = title;
        this.errors = errors;
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String title() {
        return title;
    }

    public List<Problem.FieldError> errors() {
        return errors;
    }
}

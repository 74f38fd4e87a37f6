package dev.cabinet.http;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/** An RFC 9457 problem details body; {@code errors} names each offending field. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String instance, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    /** One field that failed validation, and why. */
    public record FieldError(String field, String message) {
    }
}

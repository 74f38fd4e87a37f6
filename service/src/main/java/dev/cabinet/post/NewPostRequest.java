package dev.cabinet.post;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.cabinet.shared.TextRules;

/** The body of {@code POST /posts}. */
public record NewPostRequest(
        @Schema(example = "Hello, Cabinet")
        @NotBlank @Size(max = TextRules.TITLE_MAX) @Pattern(regexp = TextRules.NO_CONTROL_CHARACTERS) String title,
        @Schema(example = "The first post.")
        @NotNull @Size(max = TextRules.BODY_MAX) @Pattern(regexp = TextRules.MULTILINE_TEXT) String body) {
}

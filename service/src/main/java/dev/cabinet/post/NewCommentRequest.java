package dev.cabinet.post;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.cabinet.shared.TextRules;

/** The body of {@code POST /posts/{id}/comments}. */
public record NewCommentRequest(
        @Schema(example = "Nice post!")
        @NotBlank @Size(max = TextRules.COMMENT_MAX) @Pattern(regexp = TextRules.MULTILINE_TEXT) String text) {
}

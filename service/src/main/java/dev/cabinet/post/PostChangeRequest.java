package dev.cabinet.post;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;

import dev.cabinet.shared.NotBlankWhenGiven;
import dev.cabinet.shared.TextRules;

/** The body of {@code PATCH /posts/{id}}: the fields to change. */
public record PostChangeRequest(
        @Schema(example = "Hello again")
        @Size(min = 1, max = TextRules.TITLE_MAX) @Pattern(regexp = TextRules.NO_CONTROL_CHARACTERS)
        @NotBlankWhenGiven String title,
        @Schema(example = "The first post, edited.")
        @Size(max = TextRules.BODY_MAX) @Pattern(regexp = TextRules.MULTILINE_TEXT) String body) {

    @JsonIgnore
    @AssertTrue(message = "must change at least one of title, body")
    public boolean isChange() {
        return title != null || body != null;
    }
}

package dev.cabinet.folder;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.cabinet.eventlog.EventFields;
import dev.cabinet.shared.TextRules;

/** The body of {@code POST /folders/{id}/files}: the file's metadata; its content goes to the presigned URL. */
public record NewFileRequest(
        @Schema(example = "q1.pdf")
        @NotBlank @Size(max = TextRules.NAME_MAX) @Pattern(regexp = TextRules.FOLDER_NAME) String name,
        @Schema(example = "48213") @NotNull @PositiveOrZero @Max(EventFields.MAX_COUNT) Long size,
        @Schema(example = "application/pdf")
        @NotBlank @Size(max = TextRules.CONTENT_TYPE_MAX) @Pattern(regexp = TextRules.CONTENT_TYPE) String contentType) {
}

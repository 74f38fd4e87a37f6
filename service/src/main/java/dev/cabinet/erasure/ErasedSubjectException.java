package dev.cabinet.erasure;

/** A command would seal personal data of a person who was erased: answered 410, as the person is gone for good. */
public class ErasedSubjectException extends RuntimeException {

    private final String subjectId;

    public ErasedSubjectException(String subjectId) {
        super("user " + subjectId + " was erased");
        this.subjectId = subjectId;
    }

    public String subjectId() {
        return subjectId;
    }
}

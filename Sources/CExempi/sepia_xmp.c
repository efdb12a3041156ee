/*
 * The check a packet passes before Exempi parses it. Exempi's parser (the XMP Toolkit over expat) refuses DOCTYPEs
 * itself, but prints on stderr when it does, and it builds its tree recursively: a packet nesting elements some
 * thousands deep overflows the stack of the thread parsing it. expat, run here with handlers that keep nothing,
 * bounds both before Exempi runs, and names the line and column of malformed XML.
 */
#include "exempi_functions.h"
#include "sepia_xmp.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define SEPIA_EXPAT_EXTERN_F(type, name, params, args) extern type(*sepia_##name) params;
#define SEPIA_EXPAT_EXTERN_V(name, params, args) extern void(*sepia_##name) params;
SEPIA_EXPAT_FUNCTIONS(SEPIA_EXPAT_EXTERN_F, SEPIA_EXPAT_EXTERN_V)

typedef struct {
    XML_Parser parser;
    int depth, max_depth;
    int namespaces, max_namespaces;
    sepia_xmp_check_result result;
    char *message;
    size_t message_size;
} check_state;

static void stop(check_state *state, sepia_xmp_check_result result, const char *what) {
    if (state->result != SEPIA_XMP_CHECK_OK) {
        return;
    }
    state->result = result;
    snprintf(state->message, state->message_size, "%s at line %lu, column %lu", what,
        (unsigned long)sepia_XML_GetCurrentLineNumber(state->parser),
        (unsigned long)sepia_XML_GetCurrentColumnNumber(state->parser) + 1);
    sepia_XML_StopParser(state->parser, XML_FALSE);
}

static void XMLCALL start_element(void *data, const XML_Char *name, const XML_Char **attributes) {
    (void)name;
    check_state *state = data;
    state->depth += 1;
    if (state->depth > state->max_depth) {
        char what[96];
        snprintf(what, sizeof(what), "elements nested more than %d deep", state->max_depth);
        stop(state, SEPIA_XMP_CHECK_TOO_DEEP, what);
        return;
    }
    for (const XML_Char **attribute = attributes; *attribute != NULL; attribute += 2) {
        if (strcmp(*attribute, "xmlns") == 0 || strncmp(*attribute, "xmlns:", 6) == 0) {
            state->namespaces += 1;
        }
    }
    if (state->namespaces > state->max_namespaces) {
        char what[96];
        snprintf(what, sizeof(what), "more than %d namespace declarations", state->max_namespaces);
        stop(state, SEPIA_XMP_CHECK_TOO_MANY_NAMESPACES, what);
    }
}

static void XMLCALL end_element(void *data, const XML_Char *name) {
    (void)name;
    check_state *state = data;
    state->depth -= 1;
}

static void XMLCALL start_doctype(
    void *data, const XML_Char *name, const XML_Char *system_id, const XML_Char *public_id, int has_internal_subset) {
    (void)name;
    (void)system_id;
    (void)public_id;
    (void)has_internal_subset;
    stop(data, SEPIA_XMP_CHECK_DOCTYPE, "a DOCTYPE (document type declaration)");
}

static void XMLCALL entity_declaration(void *data, const XML_Char *name, int is_parameter, const XML_Char *value,
    int value_length, const XML_Char *base, const XML_Char *system_id, const XML_Char *public_id,
    const XML_Char *notation) {
    (void)name;
    (void)is_parameter;
    (void)value;
    (void)value_length;
    (void)base;
    (void)system_id;
    (void)public_id;
    (void)notation;
    stop(data, SEPIA_XMP_CHECK_DOCTYPE, "an entity declaration");
}

sepia_xmp_check_result sepia_xmp_check(
    const char *bytes, size_t size, int max_depth, int max_namespaces, char *message, size_t message_size) {
    if (message_size > 0) {
        message[0] = 0;
    }
    if (size > INT_MAX) {
        snprintf(message, message_size, "the packet is larger than expat can take at once");
        return SEPIA_XMP_CHECK_MALFORMED;
    }
    XML_Parser parser = sepia_XML_ParserCreate(NULL);
    if (parser == NULL) {
        snprintf(message, message_size, "expat could not allocate a parser");
        return SEPIA_XMP_CHECK_MALFORMED;
    }
    check_state state = {parser, 0, max_depth, 0, max_namespaces, SEPIA_XMP_CHECK_OK, message, message_size};
    sepia_XML_SetUserData(parser, &state);
    sepia_XML_SetElementHandler(parser, start_element, end_element);
    sepia_XML_SetStartDoctypeDeclHandler(parser, start_doctype);
    sepia_XML_SetEntityDeclHandler(parser, entity_declaration);
    sepia_XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER);
    enum XML_Status status = sepia_XML_Parse(parser, bytes, (int)size, 1);
    if (status != XML_STATUS_OK && state.result == SEPIA_XMP_CHECK_OK) {
        state.result = SEPIA_XMP_CHECK_MALFORMED;
        snprintf(message, message_size, "%s at line %lu, column %lu",
            sepia_XML_ErrorString(sepia_XML_GetErrorCode(parser)),
            (unsigned long)sepia_XML_GetCurrentLineNumber(parser), (unsigned long)sepia_XML_GetCurrentColumnNumber(parser) + 1);
    }
    sepia_XML_ParserFree(parser);
    return state.result;
}
